import { useStore } from '@nanostores/react';
import { useState } from 'react';
import type { Role } from '../../../contract/constants/roles.ts';
import type { Invitation, Member } from '../../../contract/members.ts';
import { atLeast, roleLabel } from '../../../contract/roles.ts';
import { call, client, errorMessage } from '../../lib/api.ts';
import { invalidateApi } from '../../stores/fetcher.ts';
import { $invitations, $members } from '../../stores/members.ts';
import { $spaceId } from '../../stores/route.ts';
import { $space } from '../../stores/space.ts';
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
  const reload = (): void => invalidateApi($space, $members, $invitations);

  return (
    <Loaded spaceId={spaceId} loaded={loaded} retry={retry} loading="Loading members…">
      {(data) => {
        const [me, { role: myRole, ...current }, { items: memberList }, { items: invitationList }] = data;
        const param = { spaceId: current.id };

        // Every change: call, say what happened (or the API's refusal), then show the fresh lists.
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
            reload();
          }
        };
        const changeRole = (member: Member, role: Role): Promise<boolean> =>
          act(
            member.userId,
            () =>
              call(
                client.spaces[':spaceId'].members[':userId'].$patch({
                  param: { ...param, userId: member.userId },
                  json: { role },
                }),
              ),
            `${member.name} is now ${roleLabel(role).toLowerCase()}.`,
          );
        const remove = (member: Member) =>
          act(
            member.userId,
            () =>
              call(
                client.spaces[':spaceId'].members[':userId'].$delete({ param: { ...param, userId: member.userId } }),
              ),
            `${member.name} was removed.`,
          );
        const revoke = (invitation: Invitation) =>
          act(
            invitation.id,
            () =>
              call(
                client.spaces[':spaceId'].invitations[':invitationId'].$delete({
                  param: { ...param, invitationId: invitation.id },
                }),
              ),
            `The invitation of ${invitation.email} was revoked.`,
          );
        const leave = async (): Promise<void> => {
          try {
            await call(client.spaces[':spaceId'].leave.$post({ param }));
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
                  onInvited={(invitation) => {
                    setNotice({ tone: 'success', text: `Invitation sent to ${invitation.email}.` });
                    reload();
                  }}
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
