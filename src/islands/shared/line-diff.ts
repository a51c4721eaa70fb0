/**
 * A small line diff (longest common subsequence) for every before-and-after view: the firewall History tab's settings
 * and files, and the settings a remedy or a virtual patch would change before it is applied.
 */

/** One line of a diff: kept, removed from the old text, or added in the new one, with its line numbers. */
export interface DiffLine {
  readonly kind: 'same' | 'removed' | 'added';
  readonly text: string;
  readonly oldNumber: number | null;
  readonly newNumber: number | null;
}

/**
 * A run of lines to show, a count of unchanged lines left out between runs, or (once `maxShown` lines are shown) the
 * count of the lines left out at the end.
 */
export type DiffPart =
  | { readonly kind: 'lines'; readonly lines: DiffLine[] }
  | { readonly kind: 'gap'; readonly count: number }
  | { readonly kind: 'more'; readonly count: number };

// Past this many cells the middle is shown as removed then added, rather than spending seconds on the table.
const MAX_CELLS = 4_000_000;

/** The lines of `before` and `after` as kept, removed and added, in order. */
export function diffLines(before: string, after: string): DiffLine[] {
  const a = before === '' ? [] : before.split('\n');
  const b = after === '' ? [] : after.split('\n');
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start += 1;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA -= 1;
    endB -= 1;
  }
  const midA = a.slice(start, endA);
  const midB = b.slice(start, endB);
  const ops: ('same' | 'removed' | 'added')[] = [];
  if (midA.length * midB.length > MAX_CELLS) {
    ops.push(...midA.map(() => 'removed' as const), ...midB.map(() => 'added' as const));
  } else {
    // lengths[i][j]: the longest common subsequence of midA[i..] and midB[j..].
    const width = midB.length + 1;
    const lengths = new Uint32Array((midA.length + 1) * width);
    for (let i = midA.length - 1; i >= 0; i -= 1) {
      for (let j = midB.length - 1; j >= 0; j -= 1) {
        lengths[i * width + j] =
          midA[i] === midB[j]
            ? (lengths[(i + 1) * width + j + 1] ?? 0) + 1
            : Math.max(lengths[(i + 1) * width + j] ?? 0, lengths[i * width + j + 1] ?? 0);
      }
    }
    let i = 0;
    let j = 0;
    while (i < midA.length || j < midB.length) {
      if (i < midA.length && j < midB.length && midA[i] === midB[j]) {
        ops.push('same');
        i += 1;
        j += 1;
      } else if (
        j < midB.length &&
        (i >= midA.length || (lengths[i * width + j + 1] ?? 0) >= (lengths[(i + 1) * width + j] ?? 0))
      ) {
        ops.push('added');
        j += 1;
      } else {
        ops.push('removed');
        i += 1;
      }
    }
  }
  const lines: DiffLine[] = [];
  let oldNumber = 1;
  let newNumber = 1;
  const push = (kind: DiffLine['kind'], text: string): void => {
    lines.push({
      kind,
      text,
      oldNumber: kind === 'added' ? null : oldNumber,
      newNumber: kind === 'removed' ? null : newNumber,
    });
    if (kind !== 'added') oldNumber += 1;
    if (kind !== 'removed') newNumber += 1;
  };
  for (const text of a.slice(0, start)) push('same', text);
  let i = 0;
  let j = 0;
  for (const op of ops) {
    if (op === 'same') {
      push('same', midA[i] ?? '');
      i += 1;
      j += 1;
    } else if (op === 'removed') {
      push('removed', midA[i] ?? '');
      i += 1;
    } else {
      push('added', midB[j] ?? '');
      j += 1;
    }
  }
  for (const text of a.slice(endA)) push('same', text);
  return lines;
}

/** True when the diff changes anything. */
export function hasChanges(lines: readonly DiffLine[]): boolean {
  return lines.some((line) => line.kind !== 'same');
}

/**
 * The changed lines with `context` unchanged lines around each change; the rest counted as gaps. At most `maxShown`
 * lines are shown: a country's thousands of address ranges appearing in a file would otherwise be a table too large
 * for the browser to draw, so the rest is counted as one `more` part.
 */
export function withContext(lines: readonly DiffLine[], context = 3, maxShown = 500): DiffPart[] {
  const keep = lines.map(() => false);
  lines.forEach((line, index) => {
    if (line.kind === 'same') return;
    for (let at = Math.max(0, index - context); at <= Math.min(lines.length - 1, index + context); at += 1)
      keep[at] = true;
  });
  const parts: DiffPart[] = [];
  let run: DiffLine[] = [];
  let gap = 0;
  let shown = 0;
  let more = 0;
  lines.forEach((line, index) => {
    if (shown >= maxShown) {
      if (keep[index]) more += 1;
      return;
    }
    if (keep[index]) {
      shown += 1;
      if (gap > 0) parts.push({ kind: 'gap', count: gap });
      gap = 0;
      run.push(line);
    } else {
      if (run.length > 0) parts.push({ kind: 'lines', lines: run });
      run = [];
      gap += 1;
    }
  });
  if (run.length > 0) parts.push({ kind: 'lines', lines: run });
  if (gap > 0 && more === 0) parts.push({ kind: 'gap', count: gap });
  if (more > 0) parts.push({ kind: 'more', count: more });
  return parts;
}
