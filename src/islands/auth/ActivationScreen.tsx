import { useEffect, useState } from 'react';
import { errorMessage } from '../../lib/api.ts';
import { activateAccount } from '../../stores/auth.ts';
import { $route } from '../../stores/route.ts';
import { withApp } from '../app/with-app.tsx';
import { Alert } from '../shared/Alert.tsx';
import { ResendActivation } from './ResendActivation.tsx';

type State = { kind: 'working' } | { kind: 'active' } | { kind: 'failed'; message: string };

/** Activates the account with the token in the URL; an expired or used link says so and offers a new one. */
function ActivationScreen() {
  const [state, setState] = useState<State>({ kind: 'working' });
  useEffect(() => {
    const token = $route.get()?.params.token ?? '';
    activateAccount(token).then(
      () => setState({ kind: 'active' }),
      (error: unknown) => setState({ kind: 'failed', message: errorMessage(error) }),
    );
  }, []);
  if (state.kind === 'working') return <p role="status">Activating your account…</p>;
  if (state.kind === 'active') {
    return (
      <div className="stack">
        <Alert tone="success">Your account is active.</Alert>
        <a className="button" href="/auth/login">
          Sign in
        </a>
      </div>
    );
  }
  return (
    <div className="stack">
      <Alert tone="error">{state.message}</Alert>
      <ResendActivation />
    </div>
  );
}

export default withApp(ActivationScreen);
