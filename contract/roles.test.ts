import type { Role } from './constants/roles.ts';
import { assignableRoles, atLeast, canManage, roleLabel } from './roles.ts';

describe('role rules', () => {
  test.each<{ caller: Role; expected: readonly Role[] }>([
    { caller: 'owner', expected: ['owner', 'admin', 'analyst', 'viewer'] },
    { caller: 'admin', expected: ['admin', 'analyst', 'viewer'] },
    { caller: 'analyst', expected: [] },
    { caller: 'viewer', expected: [] },
  ])('$caller may assign $expected', ({ caller, expected }) => {
    expect(assignableRoles(caller)).toEqual(expected);
  });

  test.each<{ caller: Role; target: Role; expected: boolean }>([
    { caller: 'owner', target: 'owner', expected: true },
    { caller: 'owner', target: 'viewer', expected: true },
    { caller: 'admin', target: 'owner', expected: false },
    { caller: 'admin', target: 'admin', expected: true },
    { caller: 'admin', target: 'analyst', expected: true },
    { caller: 'analyst', target: 'viewer', expected: false },
    { caller: 'viewer', target: 'viewer', expected: false },
  ])('$caller manages $target: $expected', ({ caller, target, expected }) => {
    expect(canManage(caller, target)).toBe(expected);
  });

  test.each<{ role: Role; least: Role; expected: boolean }>([
    { role: 'owner', least: 'admin', expected: true },
    { role: 'admin', least: 'admin', expected: true },
    { role: 'analyst', least: 'admin', expected: false },
    { role: 'viewer', least: 'analyst', expected: false },
  ])('$role is at least $least: $expected', ({ role, least, expected }) => {
    expect(atLeast(role, least)).toBe(expected);
  });
});

test.each<{ role: Role; expected: string }>([
  { role: 'owner', expected: 'Owner' },
  { role: 'viewer', expected: 'Viewer' },
])('$role reads as $expected', ({ role, expected }) => {
  expect(roleLabel(role)).toBe(expected);
});
