import { useStore } from '@nanostores/react';
import { useState } from 'react';
import type { CreatedFirewall } from '../../../contract/firewalls.ts';
import { atLeast } from '../../../contract/roles.ts';
import { buildPath } from '../../lib/routes.ts';
import { invalidateApi } from '../../stores/fetcher.ts';
import { $firewalls } from '../../stores/firewalls.ts';
import { $spaceId } from '../../stores/route.ts';
import { $space } from '../../stores/space.ts';
import { withApp } from '../app/with-app.tsx';
import { Alert } from '../shared/Alert.tsx';
import { Loaded } from '../shared/Loaded.tsx';
import { all, useApi } from '../shared/use-api.ts';
import { ConnectorTokenReveal } from './ConnectorTokenReveal.tsx';
import { CreateFirewallForm } from './CreateFirewallForm.tsx';
import { FirewallsTable } from './FirewallsTable.tsx';
import '../shared/panels.css';
import '../shared/console-screens.css';
import './firewall.css';

/** /console/firewall/{space_id}: the space's firewalls with connector state and 24 h figures; admins create and delete. */
export function FirewallsScreen() {
  const spaceId = useStore($spaceId);
  const space = useApi($space);
  const firewalls = useApi($firewalls);
  const [created, setCreated] = useState<CreatedFirewall | null>(null);
  const [deleted, setDeleted] = useState<string | null>(null);
  const loaded = all(space.loaded, firewalls.loaded);
  const retry = (): void => {
    space.retry();
    firewalls.retry();
  };

  const body = (
    <Loaded spaceId={spaceId} loaded={loaded} retry={retry} loading="Loading firewalls…">
      {(data) => {
        const [{ id, role }, { items }] = data;
        const admin = atLeast(role, 'admin');
        return (
          <>
            <div className="row sg-sources-head">
              <p className="muted">
                Each firewall is a private nginx with ModSecurity and the OWASP Core Rule Set in front of one
                application, run by its connector. Open a firewall to configure its rules, see its generated files and
                its versions.
              </p>
              <button type="button" className="button secondary" onClick={() => invalidateApi($space, $firewalls)}>
                Refresh
              </button>
            </div>
            {deleted && (
              <Alert tone="success">
                Firewall “{deleted}” was deleted. Its connector token no longer works; its events stay in the event log.
              </Alert>
            )}
            {items.length === 0 ? (
              <p className="sg-empty">
                No firewalls yet.{' '}
                {admin
                  ? 'Create one below with the host names it protects and the application it forwards to, then run its connector with the command shown.'
                  : 'An admin or owner of this space can create one.'}
              </p>
            ) : (
              <FirewallsTable
                spaceId={id}
                firewalls={items}
                now={Date.now()}
                canDelete={admin}
                onDeleted={(name) => {
                  setDeleted(name);
                  setCreated(null);
                }}
              />
            )}
            {created && (
              <div className="sg-created">
                <ConnectorTokenReveal token={created.token} title={`Firewall “${created.name}” created.`} />
                <a
                  className="button secondary"
                  href={buildPath('/console/firewall/config/{space_id}/{id}', { space_id: id, id: created.id })}
                >
                  Configure {created.name}
                </a>
              </div>
            )}
            {admin ? (
              <section className="sg-create" aria-labelledby="sg-create-firewall-heading">
                <h3 id="sg-create-firewall-heading">Create a firewall</h3>
                <CreateFirewallForm
                  spaceId={id}
                  onCreated={(firewall) => {
                    setCreated(firewall);
                    setDeleted(null);
                  }}
                />
              </section>
            ) : (
              <p className="muted">Only admins and owners of this space can create, change or delete firewalls.</p>
            )}
          </>
        );
      }}
    </Loaded>
  );

  return (
    <section className="card panel sg-sources sg-fw" aria-labelledby="sg-firewalls-heading">
      <h2 id="sg-firewalls-heading">Firewalls</h2>
      {body}
    </section>
  );
}

export default withApp(FirewallsScreen);
