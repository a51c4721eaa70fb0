import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import type { Me } from '../../../contract/me.ts';
import { errorMessage } from '../../lib/api.ts';
import { $me, loadMe, signInUrl } from '../../stores/session.ts';
import { navigate } from './navigate.ts';
import type { Loaded } from './use-api.ts';

/**
 * The signed-in user; a signed-out visitor is sent to sign in and back here afterwards (and stays `loading`).
 * `loaded` reads like an API store's, to combine with `all(...)` and show a failure with `Problem`.
 */
export function useSignedIn() {
  // Hydrating, the first render reads the store's initial value as the pre-rendered HTML did, even when another
  // island has already loaded the user (else React reports a hydration mismatch and renders the island again).
  const me = useStore($me, { ssr: 'initial' });
  const [failure, setFailure] = useState<{ readonly error: unknown } | null>(null);
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    setFailure(null);
    loadMe(attempt > 0).then(
      (user) => {
        if (!user) navigate(signInUrl());
      },
      (error: unknown) => setFailure({ error }),
    );
  }, [attempt]);
  const loaded: Loaded<Me> = failure
    ? { state: 'error', error: failure.error }
    : me
      ? { state: 'ready', data: me, refreshing: false }
      : { state: 'loading' };
  return {
    me: me ?? null,
    error: failure ? errorMessage(failure.error) : null,
    loaded,
    retry: () => setAttempt((n) => n + 1),
  };
}
