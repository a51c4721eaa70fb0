/** OSV ranges in words. */
import { expect, test } from 'vitest';
import type { OsvRange } from '../../../../contract/vuln-refs.ts';
import { rangeInWords } from './ranges.ts';

const range = (events: OsvRange['events'], type: OsvRange['type'] = 'SEMVER'): OsvRange => ({ type, events });

test.each([
  [[{ introduced: '2.0.0' }, { fixed: '2.3.1' }], ['from 2.0.0 before 2.3.1']],
  [[{ introduced: '0' }, { fixed: '1.4.2' }], ['every version before 1.4.2']],
  [[{ introduced: '1.0' }, { last_affected: '1.4' }], ['from 1.0 up to and including 1.4']],
  [[{ introduced: '3.0.0' }], ['from 3.0.0 on']],
  [[{ introduced: '0' }], ['every version']],
  [
    [{ introduced: '1.0.0' }, { fixed: '1.2.5' }, { introduced: '2.0.0' }, { fixed: '2.0.3' }],
    ['from 1.0.0 before 1.2.5', 'from 2.0.0 before 2.0.3'],
  ],
  [
    [{ introduced: '0' }, { limit: '5.0.0' }],
    ['(versions searched up to 5.0.0)', 'every version'],
  ],
] as const)('%j reads %j', (events, words) => {
  expect(rangeInWords(range([...events]))).toEqual(words);
});

test('git ranges name shortened commits', () => {
  expect(
    rangeInWords(
      range(
        [
          { introduced: '0f5c3a6e9b1d2c4f8a7e6d5c4b3a29187f6e5d4c' },
          { fixed: '93e1f2c0b6d2aa11bb22cc33dd44ee55ff667788' },
        ],
        'GIT',
      ),
    ),
  ).toEqual(['from commit 0f5c3a6e9b1d before commit 93e1f2c0b6d2']);
});
