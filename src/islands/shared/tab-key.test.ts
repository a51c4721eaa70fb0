import { tabAfterKey } from './tab-key.ts';

describe('tabAfterKey', () => {
  test.each([
    { key: 'ArrowRight', index: 0, expected: 1 },
    { key: 'ArrowDown', index: 2, expected: 0 },
    { key: 'ArrowLeft', index: 0, expected: 2 },
    { key: 'ArrowUp', index: 1, expected: 0 },
    { key: 'Home', index: 2, expected: 0 },
    { key: 'End', index: 0, expected: 2 },
    { key: 'a', index: 1, expected: null },
  ])('$key from tab $index of 3 goes to $expected', ({ key, index, expected }) => {
    expect(tabAfterKey(key, index, 3)).toBe(expected);
  });
});
