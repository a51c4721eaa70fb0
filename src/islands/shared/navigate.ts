/** Leaves the page for another one; one seam so tests can see where a screen sends the user. */
export function navigate(url: string): void {
  location.assign(url);
}
