import { useEffect, useState } from 'react';
import type { InvitationPreview } from '../../../contract/members.ts';
import { errorMessage } from '../../lib/api.ts';
import { acceptInvitationLink, previewInvitation } from '../../stores/space.ts';
import { Alert } from '../shared/Alert.tsx';

type State =
  | { kind: 'none' }
  | { kind: 'loaded'; invitation: InvitationPreview; token: string }
  | { kind: 'failed'; message: string };

/** An invitation link from mail (`/spaces?invitation=TOKEN`): what it offers, and accepting it. */
export function InvitationLink() {
  const [state, setState] = useState<State>({ kind: 'none' });
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    const token = new URLSearchParams(location.search).get('invitation');
    if (!token) return;
    previewInvitation(token).then(
      (invitation) => setState({ kind: 'loaded', invitation, token }),
      (failure: unknown) => setState({ kind: 'failed', message: errorMessage(failure) }),
    );
  }, []);
  if (state.kind === 'none') return null;
  if (state.kind === 'failed') return <Alert tone="error">{state.message}</Alert>;
  const accept = async (): Promise<void> => {
    setBusy(true);
    try {
      location.assign(`/console/${await acceptInvitationLink(state.token)}`);
    } catch (failure) {
      setState({ kind: 'failed', message: errorMessage(failure) });
      setBusy(false);
    }
  };
  return (
    <section className="card panel" aria-labelledby="invite-link-title">
      <h2 id="invite-link-title">Join {state.invitation.spaceName}</h2>
      <p>
        You are invited as <strong>{state.invitation.role}</strong> (
        <span className="wrap-anywhere">{state.invitation.email}</span>).
      </p>
      <button type="button" className="button" disabled={busy} onClick={() => void accept()}>
        Accept and open the space
      </button>
    </section>
  );
}
