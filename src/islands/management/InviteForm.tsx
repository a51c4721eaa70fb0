import { useState } from 'react';
import type { Role } from '../../../contract/constants/roles.ts';
import type { Invitation } from '../../../contract/members.ts';
import { assignableRoles, parseRole, roleLabel } from '../../../contract/roles.ts';
import { inviteMember } from '../../stores/members.ts';
import { Alert } from '../shared/Alert.tsx';
import { Field } from '../shared/Field.tsx';
import { SelectField } from '../shared/SelectField.tsx';
import { FormProblem, useSubmit } from '../shared/use-submit.ts';

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
  const { pending, error, fields, onSubmit } = useSubmit(
    async () => {
      if (email.trim() === '') throw new FormProblem({ email: 'Enter the email address to invite.' });
      const invitation = await inviteMember(spaceId, { email: email.trim(), role });
      setEmail('');
      onInvited(invitation);
    },
    { fields: ['email', 'role'] },
  );

  return (
    <form className="sg-invite" onSubmit={(event) => void onSubmit(event)} noValidate aria-busy={pending}>
      {error && <Alert tone="error">{error}</Alert>}
      <div className="sg-invite__fields">
        <Field
          label="Email"
          name="email"
          type="email"
          autoComplete="off"
          required
          value={email}
          onChange={(event) => setEmail(event.currentTarget.value)}
          error={fields.email}
        />
        <SelectField
          label="Role"
          name="role"
          value={role}
          onChange={(event) => setRole(parseRole(event.currentTarget.value) ?? role)}
          options={roles.map((r) => ({ value: r, label: roleLabel(r) }))}
          error={fields.role}
        />
      </div>
      <button className="button" type="submit" disabled={pending}>
        {pending ? 'Sending…' : 'Send invitation'}
      </button>
    </form>
  );
}
