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
    expect(parts.map((part) => (part.kind === 'gap' ? `gap ${part.count}` : `lines ${part.lines.length}`))).toEqual([
      'gap 8',
      'lines 6',
      'gap 7',
    ]);
  });
});
