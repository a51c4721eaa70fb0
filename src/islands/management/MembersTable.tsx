import type { Role } from '../../../contract/common.ts';
import type { Member } from '../../../contract/members.ts';
import { assignableRoles, canManage, roleLabel } from '../../../contract/roles.ts';
import { ConfirmButton } from '../shared/ConfirmButton.tsx';
import { dateOnly } from '../shared/format.ts';
import { TableScroll } from '../shared/TableScroll.tsx';
import { RoleCell } from './RoleCell.tsx';

interface Props {
  readonly members: readonly Member[];
  readonly myId: string;
  readonly myRole: Role;
  /** userId of the member whose change is in flight. */
  readonly busy: string | null;
  readonly onRoleChange: (member: Member, role: Role) => Promise<boolean>;
  readonly onRemove: (member: Member) => Promise<unknown>;
}

/** The members of the space: name, email, role (a select where the caller may change it), joined, remove. */
export function MembersTable({ members, myId, myRole, busy, onRoleChange, onRemove }: Props) {
  if (members.length === 0) return <p className="muted">No members yet. Invite someone below.</p>;
  const options = assignableRoles(myRole);
  const anyActions = members.some((m) => m.userId !== myId && canManage(myRole, m.role));
  return (
    <TableScroll label="Members table">
      <table className="data">
        <caption className="visually-hidden">Members</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Email</th>
            <th scope="col">Role</th>
            <th scope="col">Joined</th>
            {anyActions && (
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {members.map((member) => {
            const mine = member.userId === myId;
            const manageable = canManage(myRole, member.role);
            return (
              <tr key={member.userId}>
                <th scope="row">
                  {member.name}
                  {mine && <span className="muted"> (you)</span>}
                </th>
                <td>{member.email}</td>
                <td>
                  {manageable ? (
                    <RoleCell member={member} options={options} busy={busy === member.userId} onSave={onRoleChange} />
                  ) : (
                    roleLabel(member.role)
                  )}
                </td>
                <td>
                  <time dateTime={member.joinedAt}>{dateOnly(member.joinedAt)}</time>
                </td>
                {anyActions && (
                  <td>
                    {!mine && manageable && (
                      <ConfirmButton
                        label="Remove"
                        ariaLabel={`Remove ${member.name}`}
                        question={`Remove ${member.name} from this space?`}
                        disabled={busy === member.userId}
                        onConfirm={() => onRemove(member)}
                      />
                    )}
                  </td>
                )}
              </tr>
            );
          })}
        </tbody>
      </table>
    </TableScroll>
  );
}
