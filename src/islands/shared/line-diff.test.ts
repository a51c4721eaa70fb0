import { diffLines, hasChanges, withContext } from './line-diff.ts';

describe('diffLines', () => {
  test('keeps, removes and adds lines with their numbers', () => {
    const lines = diffLines('a\nb\nc\nd', 'a\nc\nx\nd');
    expect(lines.map((line) => `${line.kind[0]}${line.oldNumber ?? '-'}${line.newNumber ?? '-'} ${line.text}`)).toEqual(
      ['s11 a', 'r2- b', 's32 c', 'a-3 x', 's44 d'],
    );
    expect(hasChanges(lines)).toBe(true);
    expect(hasChanges(diffLines('same', 'same'))).toBe(false);
  });

  test('an empty side is all added or all removed', () => {
    expect(diffLines('', 'a\nb').map((line) => line.kind)).toEqual(['added', 'added']);
    expect(diffLines('a', '').map((line) => line.kind)).toEqual(['removed']);
  });

  test('unchanged runs far from a change are counted, not shown', () => {
    const before = Array.from({ length: 20 }, (_, n) => `line ${n}`).join('\n');
    const after = before.replace('line 10', 'changed');
    const parts = withContext(diffLines(before, after), 2);
    expect(
      parts.map((part) => (part.kind === 'lines' ? `lines ${part.lines.length}` : `${part.kind} ${part.count}`)),
    ).toEqual(['gap 8', 'lines 6', 'gap 7']);
  });

  test('past maxShown lines the rest is one count: a country list of thousands of ranges stays drawable', () => {
    const ranges = Array.from({ length: 2000 }, (_, n) => `10.${n >> 8}.${n & 255}.0/24`).join('\n');
    const parts = withContext(diffLines('# countries\n', `# countries\n${ranges}`), 3, 100);
    const shown = parts.flatMap((part) => (part.kind === 'lines' ? part.lines : []));
    expect(shown).toHaveLength(100);
    // 2 002 lines to show: the first as context, the old empty last line removed, 2 000 added.
    expect(parts.at(-1)).toEqual({ kind: 'more', count: 2002 - 100 });
    expect(withContext(diffLines('a', 'b'), 3, 100).some((part) => part.kind === 'more')).toBe(false);
  });
});
