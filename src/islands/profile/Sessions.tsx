import { useState } from 'react';
import type { Session } from '../../../contract/me.ts';
import { errorMessage } from '../../lib/api.ts';
import { $sessions, endSession } from '../../stores/profile.ts';
import { signOut } from '../../stores/session.ts';
import { Alert } from '../shared/Alert.tsx';
import { Problem } from '../shared/Problem.tsx';
import { TableScroll } from '../shared/TableScroll.tsx';
import { useApi } from '../shared/use-api.ts';

const when = (iso: string): string => new Date(iso).toLocaleString();

/** Active sessions, each with its own sign-out; signing out the current one ends on the sign-in page. */
export function Sessions() {
  const { loaded, retry } = useApi($sessions);
  const [actionError, setError] = useState<string | null>(null);
  const end = async (session: Session): Promise<void> => {
    setError(null);
    try {
      if (session.current) return await signOut();
      await endSession(session.id);
    } catch (failure) {
      setError(errorMessage(failure));
    }
  };
  return (
    <section className="card panel" aria-labelledby="sessions-title">
      <h2 id="sessions-title">Active sessions</h2>
      {actionError && <Alert tone="error">{actionError}</Alert>}
      {loaded.state === 'error' && <Problem error={loaded.error} onRetry={retry} />}
      {loaded.state === 'loading' && <p role="status">Loading sessions…</p>}
      {loaded.state === 'ready' && (
        <TableScroll label="Active sessions table">
          <table className="data">
            <thead>
              <tr>
                <th scope="col">Device</th>
                <th scope="col">IP</th>
                <th scope="col">Last seen</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {loaded.data.items.map((session) => (
                <tr key={session.id}>
                  <td>
                    {session.userAgent ?? 'Unknown device'}
                    {session.current && <strong> (this session)</strong>}
                  </td>
                  <td>{session.ip ?? '—'}</td>
                  <td>{when(session.lastSeenAt)}</td>
                  <td>
                    <button type="button" className="button secondary" onClick={() => void end(session)}>
                      Sign out{session.current ? '' : ' this session'}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </section>
  );
}
