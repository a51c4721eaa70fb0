import { expect, test } from 'vitest';
import { passwordVerdict } from './password-strength.ts';

test.each([
  ['', 0],
  ['abc', 1],
  ['abcdefghi1', 2],
  ['abcdefghijklm1', 3],
  ['Abcdefghijklm1!', 4],
])('%s scores %i', (password, score) => {
  expect(passwordVerdict(password).score).toBe(score);
});
