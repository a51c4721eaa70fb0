import { expect, test } from 'vitest';
import { passwordProblem as apiRule } from '../../../contract/auth.ts';
import { passwordProblem, passwordVerdict } from './password-strength.ts';

test.each([
  '',
  'short1!',
  'alllowercaseletters',
  'abcdefghij',
  'abcdefghi1',
  'aaaaaaaaaaaaaaaaa',
  'Correct horse battery',
  'x'.repeat(201),
])('the form and the API agree on %s', (password) => {
  expect(passwordProblem(password)).toBe(apiRule(password));
});

test.each([
  ['', 0],
  ['abc', 1],
  ['abcdefghi1', 2],
  ['abcdefghijklm1', 3],
  ['Abcdefghijklm1!', 4],
])('%s scores %i', (password, score) => {
  expect(passwordVerdict(password).score).toBe(score);
});
