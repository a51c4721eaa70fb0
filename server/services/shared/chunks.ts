/** A list cut into consecutive slices of at most `size` items (multi-row statements with a bounded parameter count). */
export function chunksOf<T>(list: readonly T[], size: number): T[][] {
  return Array.from({ length: Math.ceil(list.length / size) }, (_, i) => list.slice(i * size, (i + 1) * size));
}
