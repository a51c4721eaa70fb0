/**
 * Adds a stylesheet's text to the document once, when the module that needs it first runs in the browser.
 * For large third-party CSS used only by lazily loaded parts (Leaflet's): imported with `?inline`, it stays out of
 * the critical CSS Astro inlines into every page that can reach the part.
 */
export function adoptStyle(id: string, css: string): void {
  if (typeof document === 'undefined' || document.querySelector(`style[data-adopted="${id}"]`)) return;
  const style = document.createElement('style');
  style.dataset.adopted = id;
  style.textContent = css;
  // First in <head>, so the page's own rules (and the component's) still win on equal specificity.
  document.head.prepend(style);
}
