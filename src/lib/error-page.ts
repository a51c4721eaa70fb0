/** Shows the seed's error page in place of the current page, from the template every layout carries. */

/** The seed's default status code. */
export const DEFAULT_ERROR_STATUS = 404;

/** The seed's message for an unknown route. */
export function notFoundMessage(fullPath: string): string {
  return `Page not found: ${fullPath}`;
}

/** The path as the user requested it: path, query and hash. */
export function fullPathOf(location: Pick<Location, 'pathname' | 'search' | 'hash'>): string {
  return location.pathname + location.search + location.hash;
}

/** Replaces the page with the error page; returns false when the page has no error template. */
export function showErrorPage(doc: Document, status: number, message: string): boolean {
  const template = doc.getElementById('sg-error-template');
  const host = doc.getElementById('sg-app-error');
  if (!(template instanceof HTMLTemplateElement) || !host) return false;
  const content = template.content.cloneNode(true) as DocumentFragment;
  const code = content.querySelector('[data-sg-status]');
  const text = content.querySelector('[data-sg-message]');
  if (code) code.textContent = String(status || DEFAULT_ERROR_STATUS);
  if (text) text.textContent = message;
  host.replaceChildren(content);
  doc.body.dataset.appError = 'true';
  doc.title = `${status || DEFAULT_ERROR_STATUS} · Lost in Space · Spaceguard`;
  host.querySelector<HTMLElement>('h1')?.focus();
  return true;
}
