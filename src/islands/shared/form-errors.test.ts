import { ApiError } from '../../lib/api.ts';
import { formErrors } from './form-errors.ts';

describe('formErrors', () => {
  test.each([
    {
      name: 'a shown field',
      error: new ApiError(409, 'already_member', 'Already.', { email: 'Already a member of this space.' }),
      expected: { message: null, fields: { email: 'Already a member of this space.' } },
    },
    {
      name: 'no field',
      error: new ApiError(403, 'owner_required', 'Only an owner may manage owners.'),
      expected: { message: 'Only an owner may manage owners.', fields: {} },
    },
    {
      name: 'a field the form does not show',
      error: new ApiError(400, 'validation', 'Invalid.', { cursor: 'Bad cursor.' }),
      expected: { message: 'Invalid.', fields: {} },
    },
    {
      name: 'a plain error',
      error: new Error('boom'),
      expected: { message: 'boom', fields: {} },
    },
  ])('$name gives $expected', ({ error, expected }) => {
    expect(formErrors(error, ['email', 'role'])).toEqual(expected);
  });
});
