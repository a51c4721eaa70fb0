import { type FormEvent, useState } from 'react';
import { assignableRoles, parseRole, type Role, roleLabel } from '../../../contract/constants/roles.ts';
import type { Invitation } from '../../../contract/members.ts';
import { call, client } from '../../lib/api.ts';
import { Alert } from '../shared/Alert.tsx';
import { Field } from '../shared/Field.tsx';
import { type FormErrors, formErrors, NO_ERRORS } from '../shared/form-errors.ts';
import { SelectField } from '../shared/SelectField.tsx';

interface Props {
  readonly spaceId: string;
  readonly myRole: Role;
  readonly onInvited: (invitation: Invitation) => void;
}

/** Invite by email with a role; the API's messages appear next to the fields and the typed values stay. */
export function InviteForm({ spaceId, myRole, onInvited }: Props) {
  const roles = assignableRoles(myRole);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>(roles.includes('viewer') ? 'viewer' : (roles.at(-1) ?? 'viewer'));
  const [pending, setPending] = useState(false);
  const [errors, setErrors] = useState<FormErrors>(NO_ERRORS);

  const submit = async (event: FormEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    if (email.trim() === '') {
      setErrors({ message: null, fields: { email: 'Enter the email address to invite.' } });
      return;
    }
    setPending(true);
    setErrors(NO_ERRORS);
    try {
      const invitation = await call(
        client.spaces[':spaceId'].invitations.$post({ param: { spaceId }, json: { email: email.trim(), role } }),
      );
      setEmail('');
      onInvited(invitation);
    } catch (error) {
      setErrors(formErrors(error, ['email', 'role']));
    } finally {
      setPending(false);
    }
  };

  return (
    <form className="sg-invite" onSubmit={(event) => void submit(event)} noValidate aria-busy={pending}>
      {errors.message && <Alert tone="error">{errors.message}</Alert>}
      <div className="sg-invite__fields">
        <Field
          label="Email"
          name="email"
          type="email"
          autoComplete="off"
          required
          value={email}
          onChange={(event) => setEmail(event.currentTarget.value)}
          error={errors.fields.email}
        />
        <SelectField
          label="Role"
          name="role"
          value={role}
          onChange={(event) => setRole(parseRole(event.currentTarget.value) ?? role)}
          options={roles.map((r) => ({ value: r, label: roleLabel(r) }))}
          error={errors.fields.role}
        />
      </div>
      <button className="button" type="submit" disabled={pending}>
        {pending ? 'Sending…' : 'Send invitation'}
      </button>
    </form>
  );
}
