import { linesOfFields, readLines, writeLines } from './component-lines.ts';

describe('component lines', () => {
  test('purls and “ecosystem name version”, blank lines and comments skipped, ecosystems in any case', () => {
    expect(readLines('pkg:npm/lodash@4.17.21\n\n# runtime\npypi Django 4.2.7\r\nGO golang.org/x/net v0.17.0')).toEqual({
      components: [
        { purl: 'pkg:npm/lodash@4.17.21' },
        { ecosystem: 'PyPI', name: 'Django', version: '4.2.7' },
        { ecosystem: 'Go', name: 'golang.org/x/net', version: 'v0.17.0' },
      ],
      lines: [1, 4, 5],
    });
    expect(readLines('npm lodash')).toEqual({ problem: expect.stringMatching(/^Line 1: write a package URL/) });
  });

  test('the API’s messages go back to their lines', () => {
    expect(
      linesOfFields(
        { 'components.1.purl': 'bad purl', 'components.2.version': 'Give the version.', 'tags.0': 'x', name: 'n' },
        [1, 4, 5],
      ),
    ).toEqual({ components: 'Line 4: bad purl Line 5: Give the version.', tags: 'x', name: 'n' });
  });

  test('an inventory written back as lines', () => {
    expect(
      writeLines([
        { purl: 'pkg:npm/a@1', ecosystem: 'npm', name: 'a', version: '1' },
        { purl: null, ecosystem: 'PyPI', name: 'b', version: '2' },
      ]),
    ).toBe('pkg:npm/a@1\nPyPI b 2');
  });
});
