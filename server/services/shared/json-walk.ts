/** What `findInJson` found: a key or string `check` refused, with its dotted path and reason, or too deep a value. */
export type JsonFinding = { path: string; key: boolean; reason: string } | 'too deep';

/**
 * The first key or string of a decoded JSON value that `check` refuses (in reading order, path '' for the value
 * itself), or 'too deep' when containers nest past `maxDepth`. Walks with its own stack: a request body or an
 * ingested record can nest as deep as its size allows, and a recursive walk overflowed the call stack (500).
 */
export function findInJson(
  value: unknown,
  maxDepth: number,
  check: (text: string) => string | null,
): JsonFinding | null {
  const stack: { value: unknown; path: string; depth: number }[] = [{ value, path: '', depth: 0 }];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const { value: here, path, depth } = item;
    if (typeof here === 'string') {
      const reason = check(here);
      if (reason !== null) return { path, key: false, reason };
      continue;
    }
    if (typeof here !== 'object' || here === null) continue;
    if (depth >= maxDepth) return 'too deep';
    const entries: [string, unknown][] = Array.isArray(here)
      ? here.map((v, i) => [String(i), v])
      : Object.entries(here);
    // Pushed in reverse, so the first finding in reading order is the one answered.
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, child] = entries[i] as [string, unknown];
      const childPath = path ? `${path}.${key}` : key;
      const reason = Array.isArray(here) ? null : check(key);
      if (reason !== null) return { path: childPath, key: true, reason };
      stack.push({ value: child, path: childPath, depth: depth + 1 });
    }
  }
  return null;
}

/** Whether containers nest past `maxDepth` (what `findInJson` answers 'too deep' for), without building paths. */
export function nestsDeeperThan(value: unknown, maxDepth: number): boolean {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const { value: here, depth } = item;
    if (typeof here !== 'object' || here === null) continue;
    if (depth >= maxDepth) return true;
    for (const child of Array.isArray(here) ? here : Object.values(here)) {
      if (typeof child === 'object' && child !== null) stack.push({ value: child, depth: depth + 1 });
    }
  }
  return false;
}
