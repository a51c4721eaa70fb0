import type { Member } from '../../../contract/members.ts';
import { SelectField } from '../shared/SelectField.tsx';

interface Props {
  readonly label: string;
  readonly members: readonly Member[];
  /** A member's user id, or '' for nobody. */
  readonly value: string;
  readonly onChange: (userId: string) => void;
  readonly error?: string | undefined;
}

/** Picks who an alert is assigned to: a member of the space who may work alerts, or nobody. */
export function MemberPicker({ label, members, value, onChange, error }: Props) {
  const options = [
    { value: '', label: 'Nobody (unassigned)' },
    ...members
      .filter((member) => member.role !== 'viewer')
      .map((member) => ({ value: member.userId, label: `${member.name} (${member.email})` })),
  ];
  return (
    <SelectField
      label={label}
      options={options}
      value={value}
      error={error}
      onChange={(event) => onChange(event.currentTarget.value)}
    />
  );
}
