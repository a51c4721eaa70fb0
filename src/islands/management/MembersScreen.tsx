import { useStore } from '@nanostores/react';
import { useState } from 'react';
import type { Role } from '../../../contract/constants/roles.ts';
import type { Invitation, Member } from '../../../contract/members.ts';
import { atLeast, roleLabel } from '../../../contract/roles.ts';
import { errorMessage } from '../../lib/api.ts';
import { $invitations, $members, changeMemberRole, removeMember, revokeInvitation } from '../../stores/members.ts';
import { $spaceId } from '../../stores/route.ts';
import { $space, leaveSpace } from '../../stores/space.ts';
import { withApp } from '../app/with-app.tsx';
import { Alert } from '../shared/Alert.tsx';
import { ConfirmButton } from '../shared/ConfirmButton.tsx';
import { Loaded } from '../shared/Loaded.tsx';
import { navigate } from '../shared/navigate.ts';
import { all, useApi } from '../shared/use-api.ts';
import { useSignedIn } from '../shared/use-signed-in.ts';
import { InvitationsTable } from './InvitationsTable.tsx';
import { InviteForm } from './InviteForm.tsx';
import { MembersTable } from './MembersTable.tsx';
import './management.css';

interface Notice {
  readonly tone: 'error' | 'success';
  readonly text: string;
}

/** /console/management/member/{space_id}: members, pending invitations, invite, change a role, remove, leave. */
export function MembersScreen() {
  const spaceId = useStore($spaceId);
  const signedIn = useSignedIn();
  const space = useApi($space);
  const members = useApi($members);
  const invitations = useApi($invitations);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const loaded = all(signedIn.loaded, space.loaded, members.loaded, invitations.loaded);
  const retry = (): void => {
    if (signedIn.loaded.state === 'error') signedIn.retry();
    space.retry();
    members.retry();
    invitations.retry();
  };

  return (
    <Loaded spaceId={spaceId} loaded={loaded} retry={retry} loading="Loading members…">
      {(data) => {
        const [me, { role: myRole, ...current }, { items: memberList }, { items: invitationList }] = data;

        // Every change: call, say what happened (or the API's refusal); the lists refresh on their own.
        const act = async (key: string, change: () => Promise<unknown>, success: string): Promise<boolean> => {
          setBusy(key);
          try {
            await change();
            setNotice({ tone: 'success', text: success });
            return true;
          } catch (error) {
            setNotice({ tone: 'error', text: errorMessage(error) });
            return false;
          } finally {
            setBusy(null);
          }
        };
        const changeRole = (member: Member, role: Role): Promise<boolean> =>
          act(
            member.userId,
            () => changeMemberRole(current.id, member.userId, role),
            `${member.name} is now ${roleLabel(role).toLowerCase()}.`,
          );
        const remove = (member: Member) =>
          act(member.userId, () => removeMember(current.id, member.userId), `${member.name} was removed.`);
        const revoke = (invitation: Invitation) =>
          act(
            invitation.id,
            () => revokeInvitation(current.id, invitation.id),
            `The invitation of ${invitation.email} was revoked.`,
          );
        const leave = async (): Promise<void> => {
          try {
            await leaveSpace(current.id);
            navigate('/spaces');
          } catch (error) {
            setNotice({ tone: 'error', text: errorMessage(error) });
          }
        };

        return (
          <div className="stack sg-management">
            {notice && <Alert tone={notice.tone}>{notice.text}</Alert>}
            <section className="card panel" aria-labelledby="sg-members-heading">
              <h2 id="sg-members-heading">Members ({memberList.length})</h2>
              <MembersTable
                members={memberList}
                myId={me.id}
                myRole={myRole}
                busy={busy}
                onRoleChange={changeRole}
                onRemove={remove}
              />
            </section>
            <section className="card panel" aria-labelledby="sg-invitations-heading">
              <h2 id="sg-invitations-heading">Pending invitations</h2>
              <InvitationsTable invitations={invitationList} myRole={myRole} onRevoke={revoke} />
            </section>
            {atLeast(myRole, 'admin') && (
              <section className="card panel" aria-labelledby="sg-invite-heading">
                <h2 id="sg-invite-heading">Invite a member</h2>
                <p className="muted">They get an email with a single-use link, valid for 7 days.</p>
                <InviteForm
                  spaceId={current.id}
                  myRole={myRole}
                  onInvited={(invitation) =>
                    setNotice({ tone: 'success', text: `Invitation sent to ${invitation.email}.` })
                  }
                />
              </section>
            )}
            <section className="card panel" aria-labelledby="sg-leave-heading">
              <h2 id="sg-leave-heading">Leave this space</h2>
              <p className="muted">
                You are {roleLabel(myRole).toLowerCase()} of {current.name}. After leaving, you need a new invitation to
                come back.
              </p>
              <ConfirmButton
                label="Leave space"
                question={`Leave ${current.name}?`}
                confirmLabel="Leave"
                onConfirm={leave}
              />
            </section>
          </div>
        );
      }}
    </Loaded>
  );
}

export default withApp(MembersScreen);
