import { useState } from 'react';
import type { ApiToken, CreatedApiToken } from '../../../contract/me.ts';
import { errorMessage } from '../../lib/api.ts';
import { $apiTokens, createApiToken, revokeApiToken } from '../../stores/profile.ts';
import { Alert } from '../shared/Alert.tsx';
import { Field } from '../shared/Field.tsx';
import { Form } from '../shared/Form.tsx';
import { Problem } from '../shared/Problem.tsx';
import { TableScroll } from '../shared/TableScroll.tsx';
import { useApi } from '../shared/use-api.ts';
import { text, useSubmit } from '../shared/use-submit.ts';

/** Personal API tokens for scripts (`Authorization: Bearer`): create (secret shown once), revoke. */
export function ApiTokens() {
  const { loaded, retry } = useApi($apiTokens);
  const [actionError, setError] = useState<string | null>(null);
  const [secret, setSecret] = useState<CreatedApiToken | null>(null);
  const items = loaded.state === 'ready' ? loaded.data.items : null;
  const create = useSubmit(
    async (form) => {
      const days = Number(text(form, 'expiresInDays'));
      setSecret(await createApiToken({ name: text(form, 'name'), ...(days > 0 ? { expiresInDays: days } : {}) }));
    },
    { fields: ['name', 'expiresInDays'] },
  );
  const revoke = async (token: ApiToken): Promise<void> => {
    setError(null);
    try {
      await revokeApiToken(token.id);
    } catch (failure) {
      setError(errorMessage(failure));
    }
  };
  return (
    <section className="card panel" aria-labelledby="tokens-title">
      <h2 id="tokens-title">API tokens</h2>
      {secret && (
        <Alert tone="success">
          Token “{secret.name}” created. Copy it now, it is not shown again:{' '}
          <code className="secret">{secret.token}</code>
        </Alert>
      )}
      {actionError && <Alert tone="error">{actionError}</Alert>}
      {loaded.state === 'error' && <Problem error={loaded.error} onRetry={retry} />}
      {items && items.length === 0 && <p className="muted">No tokens yet. Create one for scripts that call the API.</p>}
      {items && items.length > 0 && (
        <TableScroll label="API tokens table">
          <table className="data">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Starts with</th>
                <th scope="col">Last used</th>
                <th scope="col">Expires</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {items.map((token) => (
                <tr key={token.id}>
                  <td>{token.name}</td>
                  <td>
                    <code>{token.prefix}</code>
                  </td>
                  <td>{token.lastUsedAt ? new Date(token.lastUsedAt).toLocaleString() : 'Never'}</td>
                  <td>{token.expiresAt ? new Date(token.expiresAt).toLocaleDateString() : 'Never'}</td>
                  <td>
                    <button type="button" className="button secondary" onClick={() => void revoke(token)}>
                      Revoke {token.name}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      <Form onSubmit={create.onSubmit} pending={create.pending} className="stack">
        {create.error && <Alert tone="error">{create.error}</Alert>}
        <Field label="Token name" name="name" required maxLength={100} error={create.fields.name} />
        <Field
          label="Expires after (days, empty for never)"
          name="expiresInDays"
          type="number"
          min={1}
          max={3650}
          error={create.fields.expiresInDays}
        />
        <button className="button" type="submit" disabled={create.pending}>
          Create token
        </button>
      </Form>
    </section>
  );
}
