import { useEffect, useState } from 'react';
import type { Role } from '../../../contract/constants/roles.ts';
import type { Member } from '../../../contract/members.ts';
import { parseRole, roleLabel } from '../../../contract/roles.ts';

interface Props {
  readonly member: Member;
  readonly options: readonly Role[];
  readonly busy: boolean;
  /** Resolves true when the API accepted the change. */
  readonly onSave: (member: Member, role: Role) => Promise<boolean>;
}

/**
 * A member's role as a select plus Save: picking a role does nothing until saved, so arrowing through
 * the options with the keyboard never fires a change per keystroke.
 */
export function RoleCell({ member, options, busy, onSave }: Props) {
  const [draft, setDraft] = useState<Role>(member.role);
  // A refused or completed change shows the role the API holds.
  useEffect(() => {
    setDraft(member.role);
  }, [member.role]);
  const changed = draft !== member.role;
  return (
    <div className="sg-role">
      <select
        className="input sg-role-select"
        aria-label={`Role of ${member.name}`}
        value={draft}
        disabled={busy}
        onChange={(event) => setDraft(parseRole(event.currentTarget.value) ?? draft)}
      >
        {(options.includes(member.role) ? options : [member.role, ...options]).map((role) => (
          <option key={role} value={role}>
            {roleLabel(role)}
          </option>
        ))}
      </select>
      {changed && (
        <>
          <button
            type="button"
            className="button"
            aria-label={`Save the role of ${member.name}`}
            disabled={busy}
            onClick={() => {
              void onSave(member, draft).then((ok) => {
                // A refusal (e.g. the last owner) puts back the role the member still has.
                if (!ok) setDraft(member.role);
              });
            }}
          >
            Save
          </button>
          <button
            type="button"
            className="button secondary"
            aria-label={`Cancel the role change of ${member.name}`}
            disabled={busy}
            onClick={() => setDraft(member.role)}
          >
            Cancel
          </button>
        </>
      )}
    </div>
  );
}
