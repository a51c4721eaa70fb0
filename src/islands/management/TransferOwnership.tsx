import { useState } from 'react';
import type { Member } from '../../../contract/members.ts';
import { transferOwnership } from '../../stores/members.ts';
import { Alert } from '../shared/Alert.tsx';
import { ConfirmButton } from '../shared/ConfirmButton.tsx';
import { SelectField } from '../shared/SelectField.tsx';
import { useSubmit } from '../shared/use-submit.ts';

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
  const target = others.find((m) => m.userId === userId) ?? others[0];
  const { error, fields, run } = useSubmit(
    async () => {
      if (!target) return;
      await transferOwnership(spaceId, target.userId);
      onTransferred(target);
    },
    { fields: ['userId'] },
  );
  if (others.length === 0) {
    return <p className="muted">Ownership goes to an existing member: invite someone first.</p>;
  }
  return (
    <div>
      {error && <Alert tone="error">{error}</Alert>}
      <SelectField
        label="New owner"
        value={target?.userId ?? ''}
        onChange={(event) => setUserId(event.currentTarget.value)}
        options={others.map((m) => ({ value: m.userId, label: `${m.name} (${m.email})` }))}
        hint="You stay in the space as an admin."
        error={fields.userId}
      />
      <ConfirmButton
        label="Transfer ownership"
        question={`Make ${target?.name ?? 'this member'} the owner? You become an admin.`}
        confirmLabel="Transfer"
        onConfirm={() => run()}
      />
    </div>
  );
}
