import { describe, expect, test } from 'vitest';
import { Email, RegisterBody } from './auth.ts';
import { planTerms } from './constants/plans.ts';
import { passwordProblem } from './passwords.ts';
import { isTimeZone } from './spaces.ts';

describe('passwordProblem', () => {
  test.each([
    ['short1', 'at least 10'],
    ['alllowercaseletters', null],
    ['onlyletters', 'Mix letters'],
    ['letters and 1 digit', null],
    ['aaaaaaaaaaaaaaaaaaaa', 'Do not repeat'],
    ['x'.repeat(201), 'at most 200'],
  ])('%s → $1', (password, expected) => {
    const problem = passwordProblem(password);
    if (expected === null) expect(problem).toBeNull();
    else expect(problem).toContain(expected);
  });
});

test.each([
  ['Europe/Paris', true],
  ['UTC', true],
  ['America/Argentina/Buenos_Aires', true],
  ['Mars/Olympus', false],
  ['', false],
])('isTimeZone(%s) is $1', (zone, expected) => {
  expect(isTimeZone(zone)).toBe(expected);
});

test('emails are trimmed and lower-cased', () => {
  expect(Email.parse('  Ada@Example.COM ')).toBe('ada@example.com');
  expect(Email.safeParse('nope').success).toBe(false);
});

test('register body names each bad field', () => {
  const result = RegisterBody.safeParse({ name: '', email: 'x', password: 'short' });
  expect(result.success).toBe(false);
  const paths = result.error?.issues.map((i) => i.path.join('.')).sort();
  expect(paths).toEqual(['email', 'name', 'password']);
});

test('the free plan: 3 members, 7 days of retention', () => {
  expect(planTerms.free).toMatchObject({ members: 3, retentionDays: 7 });
});
