import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import { errorMessage } from '../../lib/api.ts';
import { $me, loadMe, signInUrl } from '../../stores/session.ts';

/** The signed-in user; a signed-out visitor is sent to sign in and back here afterwards. */
export function useSignedIn() {
  const me = useStore($me);
  const [error, setError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    setError(null);
    loadMe(attempt > 0).then(
      (user) => {
        if (!user) location.assign(signInUrl());
      },
      (failure: unknown) => setError(errorMessage(failure)),
    );
  }, [attempt]);
  return { me: me ?? null, error, retry: () => setAttempt((n) => n + 1) };
}
