/** Pure helpers of the JSON viewer: what kind a value is, its one-line preview, its children and its node path. */

/** The kinds the viewer styles apart. */
export type JsonKind = 'string' | 'number' | 'boolean' | 'null' | 'array' | 'object';

/** A JSON object as the viewer reads it. */
export type JsonRecord = Readonly<Record<string, unknown>>;

/** Entries of a collapsed node shown in its preview (the seed's constant). */
export const PREVIEW_ENTRIES = 2;

/** Classifies a parsed JSON value; anything JSON cannot hold (undefined, functions) reads as null. */
export function kindOf(value: unknown): JsonKind {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  switch (typeof value) {
    case 'string':
      return 'string';
    case 'number':
    case 'bigint':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'object':
      return 'object';
    default:
      return 'null';
  }
}

/** True for objects and arrays, the nodes that can be expanded. */
export function isContainer(value: unknown): value is JsonRecord | readonly unknown[] {
  return typeof value === 'object' && value !== null;
}

/** A scalar as JSON writes it: strings quoted and escaped, non-finite numbers as null. */
export function formatScalar(value: unknown): string {
  if (typeof value === 'bigint') return value.toString();
  return JSON.stringify(value) ?? 'null';
}

/** Number of children of a container, without copying them. */
export function childCount(value: JsonRecord | readonly unknown[]): number {
  return Array.isArray(value) ? value.length : Object.keys(value).length;
}

/** The children from `start` to `end` as [key, value] pairs; arrays use their indices as keys. */
export function childSlice(
  value: JsonRecord | readonly unknown[],
  start: number,
  end: number,
): Array<readonly [string, unknown]> {
  if (Array.isArray(value)) {
    return value.slice(start, end).map((child, index) => [String(start + index), child] as const);
  }
  const record = value as JsonRecord;
  return Object.keys(record)
    .slice(start, end)
    .map((key) => [key, record[key]] as const);
}

function previewOf(value: unknown): string {
  if (Array.isArray(value)) return value.length === 0 ? '[]' : '[…]';
  if (isContainer(value)) return childCount(value) === 0 ? '{}' : '{…}';
  const text = formatScalar(value);
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}

/** The one-line summary of a collapsed node: its first two entries, then an ellipsis if there are more. */
export function previewText(value: JsonRecord | readonly unknown[]): string {
  const total = childCount(value);
  const entries = childSlice(value, 0, PREVIEW_ENTRIES);
  const parts = Array.isArray(value)
    ? entries.map(([, child]) => previewOf(child))
    : entries.map(([key, child]) => `${JSON.stringify(key)}: ${previewOf(child)}`);
  if (total > PREVIEW_ENTRIES) parts.push('…');
  const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  return total === 0 ? `${open}${close}` : `${open} ${parts.join(', ')} ${close}`;
}

/** "3 items" or "1 key": the size shown beside a container. */
export function sizeText(value: JsonRecord | readonly unknown[]): string {
  const total = childCount(value);
  const noun = Array.isArray(value) ? 'item' : 'key';
  return `${total} ${noun}${total === 1 ? '' : 's'}`;
}

/** A JSON Pointer (RFC 6901) to a child, used as the node's identity. */
export function childPath(parent: string, key: string): string {
  return `${parent}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`;
}

/** The JSON a node's copy button puts on the clipboard. */
export function nodeJson(value: unknown): string {
  return (
    JSON.stringify(value, (_key, item: unknown) => (typeof item === 'bigint' ? item.toString() : item), 2) ?? 'null'
  );
}
