import { changeText } from './change-text.ts';

const ANA = '9b1d7e0a-52c4-4f8e-8a3b-6d2c1f0e9a7b';
const names = new Map([[ANA, 'Ana Analyst']]);

describe('changeText', () => {
  test.each([
    { change: null, expected: '' },
    { change: {}, expected: '' },
    { change: { status: { from: 'open', to: 'acknowledged' } }, expected: 'status: open → acknowledged' },
    { change: { assigneeId: { from: null, to: ANA } }, expected: 'assignee: nobody → Ana Analyst' },
    { change: { assigneeId: { from: 'gone-user', to: null } }, expected: 'assignee: gone-user → nobody' },
    { change: { groupKey: 'ip=1', count: 3 }, expected: 'groupKey: ip=1, count: 3' },
  ])('$change reads $expected', ({ change, expected }) => {
    expect(changeText(change, names)).toBe(expected);
  });
});
