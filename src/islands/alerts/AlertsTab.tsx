import { useState } from 'react';
import type { AlertRule } from '../../../contract/alert-rules.ts';
import type { AlertList } from '../../../contract/alerts.ts';
import type { Member } from '../../../contract/members.ts';
import { $alerts, loadAlerts } from '../../stores/alerts.ts';
import { Alert } from '../shared/Alert.tsx';
import type { AlertListView } from '../shared/alert-url.ts';
import { Problem } from '../shared/Problem.tsx';
import { useApi } from '../shared/use-api.ts';
import { useLastData } from '../shared/use-last-data.ts';
import { usePagedList } from '../shared/use-paged-list.ts';
import { AlertFilters } from './AlertFilters.tsx';
import { AlertsTable } from './AlertsTable.tsx';
import { BulkActions } from './BulkActions.tsx';

interface Props {
  readonly spaceId: string;
  readonly view: AlertListView;
  /** The list's request query the store is keyed by; later pages are asked for with it. */
  readonly query: string;
  readonly onChange: (view: AlertListView) => void;
  /** Analysts and up select rows and change them. */
  readonly canWork: boolean;
  readonly canEditRules: boolean;
  readonly rules: readonly AlertRule[];
  readonly members: readonly Member[];
  readonly onNewRule: () => void;
}

/** The Alerts tab: filters, the list with its bulk actions, Load more, and what to do when there is nothing. */
export function AlertsTab({ spaceId, view, query, onChange, canWork, canEditRules, rules, members, onNewRule }: Props) {
  const alerts = useApi($alerts);
  const shown: AlertList | undefined = useLastData(alerts.loaded);
  const list = usePagedList(query, shown, (cursor) => loadAlerts(spaceId, query, cursor));
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [done, setDone] = useState<string | null>(null);
  const { items, nextCursor } = list;
  // Only rows still listed count as selected (a filter change hides the others).
  const listed = new Set(items.map((item) => item.id));
  const chosen = [...selected].filter((id) => listed.has(id));

  const loadMore = (): void => void list.loadMore();

  const filtered = view.severity.length > 0 || view.ruleId !== null || view.assignee !== null || view.q !== '';
  return (
    <div className="sg-al-list">
      <AlertFilters view={view} rules={rules} members={members} onChange={onChange} />
      {done && <Alert tone="success">{done}</Alert>}
      {alerts.loaded.state === 'error' && <Problem error={alerts.loaded.error} onRetry={alerts.retry} />}
      {!shown && alerts.loaded.state !== 'error' && (
        <p className="muted" role="status">
          Loading alerts…
        </p>
      )}
      {shown && items.length === 0 && (
        <div className="sg-empty">
          {rules.length === 0 ? (
            <>
              <p>No alerts yet: no rule watches your events.</p>
              {canEditRules ? (
                <button type="button" className="button" onClick={onNewRule}>
                  Create an alert rule
                </button>
              ) : (
                <p className="muted">An admin or owner of this space can create alert rules.</p>
              )}
            </>
          ) : (
            <p>
              No alerts {filtered ? 'match these filters' : `are ${view.status.join(' or ')}`}.{' '}
              {filtered
                ? 'Clear a filter to see more.'
                : 'Your rules have nothing to report; add resolved to the statuses to see past alerts.'}
            </p>
          )}
        </div>
      )}
      {shown && items.length > 0 && (
        <>
          {canWork && chosen.length > 0 && (
            <BulkActions
              spaceId={spaceId}
              ids={chosen}
              members={members}
              onDone={(message) => {
                setDone(message);
                setSelected(new Set());
                list.reset();
              }}
            />
          )}
          <AlertsTable
            spaceId={spaceId}
            alerts={items}
            now={Date.now()}
            selectable={canWork}
            selected={selected}
            onSelect={(ids, on) =>
              setSelected((now) => {
                const next = new Set(now);
                for (const id of ids) {
                  if (on) next.add(id);
                  else next.delete(id);
                }
                return next;
              })
            }
          />
          {list.error ? <Problem error={list.error} onRetry={loadMore} /> : null}
          {nextCursor && (
            <button type="button" className="button secondary" disabled={list.loading} onClick={loadMore}>
              {list.loading ? 'Loading…' : 'Load more'}
            </button>
          )}
        </>
      )}
    </div>
  );
}
