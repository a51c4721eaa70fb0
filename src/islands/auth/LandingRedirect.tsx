import { useEffect, useState } from 'react';
import { errorMessage } from '../../lib/api.ts';
import { loadMe } from '../../stores/session.ts';
import { readLastSpaceId } from '../../stores/space.ts';
import { withApp } from '../app/with-app.tsx';
import { Alert } from '../shared/Alert.tsx';

/** After sign-in: the last used space's console, else /spaces; signed-out visitors go to sign in. */
function LandingRedirect() {
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    loadMe().then(
      (me) => {
        if (!me) return location.replace('/auth/login');
        const spaceId = me.lastSpaceId ?? readLastSpaceId();
        location.replace(spaceId ? `/console/${encodeURIComponent(spaceId)}` : '/spaces');
      },
      (failure: unknown) => setError(errorMessage(failure)),
    );
  }, []);
  if (error) {
    return (
      <Alert tone="error">
        {error} <a href="/auth/landing">Try again</a>
      </Alert>
    );
  }
  return (
    <p role="status">
      Opening your last used space… <a href="/spaces">All spaces</a>
    </p>
  );
}

export default withApp(LandingRedirect);
