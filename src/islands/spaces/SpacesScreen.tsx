import { useCallback, useEffect, useState } from 'react';
import type { InvitationPreview } from '../../../contract/members.ts';
import type { Space, SpaceCard } from '../../../contract/spaces.ts';
import { api, errorMessage } from '../../lib/api.ts';
import { withApp } from '../app/with-app.tsx';
import { Alert } from '../shared/Alert.tsx';
import { Field } from '../shared/Field.tsx';
import { Form } from '../shared/Form.tsx';
import { LoadError } from '../shared/LoadError.tsx';
import { useSignedIn } from '../shared/use-signed-in.ts';
import { text, useSubmit } from '../shared/use-submit.ts';
import { InvitationLink } from './InvitationLink.tsx';
import './SpacesScreen.css';

const PLAN_LABEL = { free: 'Free', pro: 'Pro', business: 'Business' } as const;

/** The user's spaces as cards, creating a space, and pending invitations to accept. */
function SpacesScreen() {
  const { me, error: meError, retry } = useSignedIn();
  const [spaces, setSpaces] = useState<SpaceCard[] | null>(null);
  const [invitations, setInvitations] = useState<InvitationPreview[]>([]);
  const [loadError, setLoadError] = useState<string | null>(null);

  const load = useCallback(() => {
    setLoadError(null);
    Promise.all([api<{ items: SpaceCard[] }>('/spaces'), api<{ items: InvitationPreview[] }>('/me/invitations')]).then(
      ([list, pending]) => {
        setSpaces(list.items);
        setInvitations(pending.items);
      },
      (failure: unknown) => setLoadError(errorMessage(failure)),
    );
  }, []);
  useEffect(() => {
    if (me) load();
  }, [me, load]);

  const create = useSubmit(async (form) => {
    const space = await api<Space>('/spaces', { method: 'POST', body: { name: text(form, 'name') } });
    location.assign(`/console/${space.id}`);
  });

  const accept = async (invitation: InvitationPreview): Promise<void> => {
    try {
      await api(`/me/invitations/${invitation.id}/accept`, { method: 'POST' });
      location.assign(`/console/${invitation.spaceId}`);
    } catch (failure) {
      setLoadError(errorMessage(failure));
    }
  };

  if (meError) return <LoadError message={meError} onRetry={retry} />;
  return (
    <div className="stack">
      {me && <InvitationLink />}
      {loadError && <LoadError message={loadError} onRetry={load} />}
      {invitations.length > 0 && (
        <section className="card panel" aria-labelledby="invitations-title">
          <h2 id="invitations-title">Invitations</h2>
          <ul className="plain-list">
            {invitations.map((invitation) => (
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
        {spaces === null && !loadError && <p role="status">Loading your spaces…</p>}
        {spaces && spaces.length === 0 && (
          <Alert tone="info">You have no space yet. Create one below to protect your first application.</Alert>
        )}
        {spaces && spaces.length > 0 && (
          <ul className="space-cards" aria-label="Your spaces">
            {spaces.map((space) => (
              <li key={space.id} className="card space-card">
                <h2>
                  <a href={`/console/${space.id}`}>{space.name}</a>
                </h2>
                <dl>
                  <div>
                    <dt>Plan</dt>
                    <dd>{PLAN_LABEL[space.plan]}</dd>
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
