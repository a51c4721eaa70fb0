import { useState } from 'react';
import { planTerms } from '../../../contract/constants/plans.ts';
import type { InvitationPreview } from '../../../contract/members.ts';
import { errorMessage } from '../../lib/api.ts';
import { $myInvitations, acceptMyInvitation } from '../../stores/profile.ts';
import { $spaces, createSpace } from '../../stores/space.ts';
import { withApp } from '../app/with-app.tsx';
import { Alert } from '../shared/Alert.tsx';
import { Field } from '../shared/Field.tsx';
import { Form } from '../shared/Form.tsx';
import { Problem } from '../shared/Problem.tsx';
import { all, useApi } from '../shared/use-api.ts';
import { useSignedIn } from '../shared/use-signed-in.ts';
import { text, useSubmit } from '../shared/use-submit.ts';
import { InvitationLink } from './InvitationLink.tsx';
import './SpacesScreen.css';

/** The user's spaces as cards, creating a space, and pending invitations to accept. */
function SpacesScreen() {
  const signedIn = useSignedIn();
  const spaces = useApi($spaces);
  const invitations = useApi($myInvitations);
  const [acceptError, setAcceptError] = useState<string | null>(null);
  const loaded = all(spaces.loaded, invitations.loaded);
  const retry = (): void => {
    spaces.retry();
    invitations.retry();
  };
  const spaceList = loaded.state === 'ready' ? loaded.data[0].items : null;
  const invitationList = loaded.state === 'ready' ? loaded.data[1].items : [];

  const create = useSubmit(
    async (form) => {
      const space = await createSpace(text(form, 'name'));
      location.assign(`/console/${space.id}`);
    },
    { fields: ['name'] },
  );

  const accept = async (invitation: InvitationPreview): Promise<void> => {
    setAcceptError(null);
    try {
      await acceptMyInvitation(invitation.id);
      location.assign(`/console/${invitation.spaceId}`);
    } catch (failure) {
      setAcceptError(errorMessage(failure));
    }
  };

  if (signedIn.loaded.state === 'error') return <Problem error={signedIn.loaded.error} onRetry={signedIn.retry} />;
  return (
    <div className="stack">
      {signedIn.me && <InvitationLink />}
      {acceptError && <Alert tone="error">{acceptError}</Alert>}
      {loaded.state === 'error' && <Problem error={loaded.error} onRetry={retry} />}
      {invitationList.length > 0 && (
        <section className="card panel" aria-labelledby="invitations-title">
          <h2 id="invitations-title">Invitations</h2>
          <ul className="plain-list">
            {invitationList.map((invitation) => (
              <li key={invitation.id} className="row">
                <span>
                  <strong>{invitation.spaceName}</strong> as {invitation.role}
                </span>
                <button type="button" className="button" onClick={() => void accept(invitation)}>
                  Accept invitation to {invitation.spaceName}
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
      {/* The list keeps its place while it loads, so the page does not jump when cards arrive. */}
      <div className="spaces-area">
        {loaded.state === 'loading' && <p role="status">Loading your spaces…</p>}
        {spaceList && spaceList.length === 0 && (
          <Alert tone="info">You have no space yet. Create one below to protect your first application.</Alert>
        )}
        {spaceList && spaceList.length > 0 && (
          <ul className="space-cards" aria-label="Your spaces">
            {spaceList.map((space) => (
              <li key={space.id} className="card space-card">
                <h2>
                  <a href={`/console/${space.id}`}>{space.name}</a>
                </h2>
                <dl>
                  <div>
                    <dt>Plan</dt>
                    <dd>{planTerms[space.plan].label}</dd>
                  </div>
                  <div>
                    <dt>Your role</dt>
                    <dd>{space.role}</dd>
                  </div>
                  <div>
                    <dt>Members</dt>
                    <dd>{space.memberCount}</dd>
                  </div>
                  <div>
                    <dt>Firewalls</dt>
                    <dd>{space.firewallCount}</dd>
                  </div>
                  <div>
                    <dt>Open alerts</dt>
                    <dd>
                      {space.openAlerts.critical} critical, {space.openAlerts.high} high, {space.openAlerts.medium}{' '}
                      medium, {space.openAlerts.low} low
                    </dd>
                  </div>
                </dl>
              </li>
            ))}
          </ul>
        )}
      </div>
      <section className="card panel" aria-labelledby="create-title">
        <h2 id="create-title">Create a space</h2>
        <Form onSubmit={create.onSubmit} pending={create.pending} className="row create-space">
          {create.error && <Alert tone="error">{create.error}</Alert>}
          <Field label="Space name" name="name" required maxLength={80} error={create.fields.name} />
          <button className="button" type="submit" disabled={create.pending}>
            Create space
          </button>
        </Form>
      </section>
    </div>
  );
}

export default withApp(SpacesScreen);
