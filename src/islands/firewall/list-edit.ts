/** Edits of the firewall's lists (exclusions, custom rules, rate limits): replace, remove and move one item. */

/** The list with item `index` replaced. */
export function replaceAt<T>(list: readonly T[], index: number, item: T): T[] {
  return list.map((old, at) => (at === index ? item : old));
}

/** The list without item `index`. */
export function removeAt<T>(list: readonly T[], index: number): T[] {
  return list.filter((_, at) => at !== index);
}

/** The list with item `from` moved to position `to` (the others shift), unchanged when either is out of range. */
export function moveTo<T>(list: readonly T[], from: number, to: number): T[] {
  if (from < 0 || from >= list.length || to < 0 || to >= list.length) return [...list];
  const next = [...list];
  const [item] = next.splice(from, 1);
  if (item !== undefined) next.splice(to, 0, item);
  return next;
}

/** The list with item `index` moved by `by` places (-1 up, 1 down), unchanged at either end. */
export function moveBy<T>(list: readonly T[], index: number, by: number): T[] {
  return moveTo(list, index, index + by);
}

/** An optional text: the trimmed text, or undefined when empty (the key is then left out). */
export function optionalText(text: string): string | undefined {
  return text.trim() === '' ? undefined : text;
}
