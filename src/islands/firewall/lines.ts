/** Lists typed one item per line (or separated by commas), as the firewall forms take host names and CIDRs. */

/** The non-empty items of a text, one a line or comma-separated, trimmed. */
export function splitList(text: string): string[] {
  return text
    .split(/[\n,]/)
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

/** A list as the text of a textarea, one item a line. */
export function joinList(items: readonly string[]): string {
  return items.join('\n');
}
