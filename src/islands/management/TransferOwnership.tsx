import { useState } from 'react';
import type { Member } from '../../../contract/members.ts';
import { api } from '../../lib/api.ts';
import { Alert } from '../shared/Alert.tsx';
import { ConfirmButton } from '../shared/ConfirmButton.tsx';
import { type FormErrors, formErrors, NO_ERRORS } from '../shared/form-errors.ts';
import { SelectField } from '../shared/SelectField.tsx';

interface Props {
  readonly spaceId: string;
  readonly myId: string;
  readonly members: readonly Member[];
  readonly onTransferred: (to: Member) => void;
}

/** The owner hands the space to another member and becomes an admin. */
export function TransferOwnership({ spaceId, myId, members, onTransferred }: Props) {
  const others = members.filter((m) => m.userId !== myId);
  const [userId, setUserId] = useState(others[0]?.userId ?? '');
  const [errors, setErrors] = useState<FormErrors>(NO_ERRORS);
  if (others.length === 0) {
    return <p className="muted">Ownership goes to an existing member: invite someone first.</p>;
  }
  const target = others.find((m) => m.userId === userId) ?? others[0];
  const transfer = async (): Promise<void> => {
    if (!target) return;
    setErrors(NO_ERRORS);
    try {
      await api(`/spaces/${spaceId}/transfer`, { method: 'POST', body: { userId: target.userId } });
      onTransferred(target);
    } catch (error) {
      setErrors(formErrors(error, ['userId']));
    }
  };
  return (
    <div>
      {errors.message && <Alert tone="error">{errors.message}</Alert>}
      <SelectField
        label="New owner"
        value={target?.userId ?? ''}
        onChange={(event) => setUserId(event.currentTarget.value)}
        options={others.map((m) => ({ value: m.userId, label: `${m.name} (${m.email})` }))}
        hint="You stay in the space as an admin."
        error={errors.fields.userId}
      />
      <ConfirmButton
        label="Transfer ownership"
        question={`Make ${target?.name ?? 'this member'} the owner? You become an admin.`}
        confirmLabel="Transfer"
        onConfirm={transfer}
      />
    </div>
  );
}
