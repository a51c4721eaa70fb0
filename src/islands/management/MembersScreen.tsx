import { useCallback, useState } from 'react';
import type { Role } from '../../../contract/common.ts';
import type { Invitation, Member } from '../../../contract/members.ts';
import { api, errorMessage } from '../../lib/api.ts';
import { withApp } from '../app/with-app.tsx';
import { Alert } from '../shared/Alert.tsx';
import { useLoad } from '../shared/use-load.ts';
import { ConfirmButton } from './ConfirmButton.tsx';
import { InvitationsTable } from './InvitationsTable.tsx';
import { InviteForm } from './InviteForm.tsx';
import { MembersTable } from './MembersTable.tsx';
import { loadMembersData } from './members-data.ts';
import { navigate } from './navigate.ts';
import { atLeast, roleLabel } from './role-rules.ts';
import { noSpaceError, ScreenProblem } from './ScreenProblem.tsx';
import { useSpaceId } from './use-space-id.ts';
import './management.css';

interface Notice {
  readonly tone: 'error' | 'success';
  readonly text: string;
}

/** /console/management/member/{space_id}: members, pending invitations, invite, change a role, remove, leave. */
export function MembersScreen() {
  const spaceId = useSpaceId();
  const load = useCallback(() => (spaceId ? loadMembersData(spaceId) : Promise.reject(noSpaceError())), [spaceId]);
  const { loaded, reload } = useLoad(spaceId === undefined ? null : load);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  if (loaded.state === 'loading')
    return (
      <p className="muted" role="status">
        Loading members…
      </p>
    );
  if (loaded.state === 'error') return <ScreenProblem error={loaded.error} onRetry={reload} />;
  const { me, space, members, invitations } = loaded.data;
  const myRole = space.role;
  const base = `/spaces/${space.id}`;

  // Every change: call, say what happened (or the API's refusal), then show the fresh lists.
  const act = async (key: string, call: () => Promise<unknown>, success: string): Promise<boolean> => {
    setBusy(key);
    try {
      await call();
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
      () => api(`${base}/members/${member.userId}`, { method: 'PATCH', body: { role } }),
      `${member.name} is now ${roleLabel(role).toLowerCase()}.`,
    );
  const remove = (member: Member) =>
    act(
      member.userId,
      () => api(`${base}/members/${member.userId}`, { method: 'DELETE' }),
      `${member.name} was removed.`,
    );
  const revoke = (invitation: Invitation) =>
    act(
      invitation.id,
      () => api(`${base}/invitations/${invitation.id}`, { method: 'DELETE' }),
      `The invitation of ${invitation.email} was revoked.`,
    );
  const leave = async (): Promise<void> => {
    try {
      await api(`${base}/leave`, { method: 'POST' });
      navigate('/spaces');
    } catch (error) {
      setNotice({ tone: 'error', text: errorMessage(error) });
    }
  };

  return (
    <div className="stack sg-management">
      {notice && <Alert tone={notice.tone}>{notice.text}</Alert>}
      <section className="card panel" aria-labelledby="sg-members-heading">
        <h2 id="sg-members-heading">Members ({members.length})</h2>
        <MembersTable
          members={members}
          myId={me.id}
          myRole={myRole}
          busy={busy}
          onRoleChange={changeRole}
          onRemove={remove}
        />
      </section>
      <section className="card panel" aria-labelledby="sg-invitations-heading">
        <h2 id="sg-invitations-heading">Pending invitations</h2>
        <InvitationsTable invitations={invitations} myRole={myRole} onRevoke={revoke} />
      </section>
      {atLeast(myRole, 'admin') && (
        <section className="card panel" aria-labelledby="sg-invite-heading">
          <h2 id="sg-invite-heading">Invite a member</h2>
          <p className="muted">They get an email with a single-use link, valid for 7 days.</p>
          <InviteForm
            spaceId={space.id}
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
          You are {roleLabel(myRole).toLowerCase()} of {space.name}. After leaving, you need a new invitation to come
          back.
        </p>
        <ConfirmButton label="Leave space" question={`Leave ${space.name}?`} confirmLabel="Leave" onConfirm={leave} />
      </section>
    </div>
  );
}

export default withApp(MembersScreen);
