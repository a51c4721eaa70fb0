import type { Role } from '../../../contract/common.ts';
import type { Invitation } from '../../../contract/members.ts';
import { canManage, roleLabel } from '../../../contract/roles.ts';
import { ConfirmButton } from '../shared/ConfirmButton.tsx';
import { dateTime } from '../shared/format.ts';
import { TableScroll } from '../shared/TableScroll.tsx';

interface Props {
  readonly invitations: readonly Invitation[];
  readonly myRole: Role;
  readonly onRevoke: (invitation: Invitation) => Promise<unknown>;
}

/** Pending invitations: email, role, who invited, expiry, revoke. */
export function InvitationsTable({ invitations, myRole, onRevoke }: Props) {
  if (invitations.length === 0) {
    return <p className="muted">No pending invitations.</p>;
  }
  const anyActions = invitations.some((i) => canManage(myRole, i.role));
  return (
    <TableScroll label="Pending invitations table">
      <table className="data">
        <caption className="visually-hidden">Pending invitations</caption>
        <thead>
          <tr>
            <th scope="col">Email</th>
            <th scope="col">Role</th>
            <th scope="col">Invited by</th>
            <th scope="col">Expires</th>
            {anyActions && (
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {invitations.map((invitation) => (
            <tr key={invitation.id}>
              <th scope="row">{invitation.email}</th>
              <td>{roleLabel(invitation.role)}</td>
              <td>{invitation.invitedBy ?? '—'}</td>
              <td>
                <time dateTime={invitation.expiresAt}>{dateTime(invitation.expiresAt)}</time>
              </td>
              {anyActions && (
                <td>
                  {canManage(myRole, invitation.role) && (
                    <ConfirmButton
                      label="Revoke"
                      ariaLabel={`Revoke the invitation of ${invitation.email}`}
                      question={`Revoke the invitation of ${invitation.email}?`}
                      onConfirm={() => onRevoke(invitation)}
                    />
                  )}
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
