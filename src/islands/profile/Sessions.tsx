import { useCallback, useState } from 'react';
import type { Session } from '../../../contract/me.ts';
import { api, errorMessage } from '../../lib/api.ts';
import { LoadError } from '../shared/LoadError.tsx';
import { useLoad } from '../shared/use-load.ts';

const when = (iso: string): string => new Date(iso).toLocaleString();

/** Active sessions, each with its own sign-out; signing out the current one ends on the sign-in page. */
export function Sessions() {
  const { loaded, reload: load } = useLoad(useCallback(() => api<{ items: Session[] }>('/me/sessions'), []));
  const [actionError, setError] = useState<string | null>(null);
  const items = loaded.state === 'ready' ? loaded.data.items : null;
  const error = actionError ?? (loaded.state === 'error' ? errorMessage(loaded.error) : null);
  const signOut = async (session: Session): Promise<void> => {
    try {
      if (session.current) {
        await api('/auth/logout', { method: 'POST' });
        location.assign('/auth/login');
        return;
      }
      await api(`/me/sessions/${session.id}`, { method: 'DELETE' });
      load();
    } catch (failure) {
      setError(errorMessage(failure));
    }
  };
  return (
    <section className="card panel" aria-labelledby="sessions-title">
      <h2 id="sessions-title">Active sessions</h2>
      {error && (
        <LoadError
          message={error}
          onRetry={() => {
            setError(null);
            load();
          }}
        />
      )}
      {items === null && !error && <p role="status">Loading sessions…</p>}
      {items && (
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
            {items.map((session) => (
              <tr key={session.id}>
                <td>
                  {session.userAgent ?? 'Unknown device'}
                  {session.current && <strong> (this session)</strong>}
                </td>
                <td>{session.ip ?? '—'}</td>
                <td>{when(session.lastSeenAt)}</td>
                <td>
                  <button type="button" className="button secondary" onClick={() => void signOut(session)}>
                    Sign out{session.current ? '' : ' this session'}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
