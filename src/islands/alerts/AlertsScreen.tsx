import { useStore } from '@nanostores/react';
import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { atLeast } from '../../../contract/roles.ts';
import { $alertListQuery, $alertRules, $alerts } from '../../stores/alerts.ts';
import { invalidateApi } from '../../stores/fetcher.ts';
import { $members } from '../../stores/members.ts';
import { $spaceId } from '../../stores/route.ts';
import { $space } from '../../stores/space.ts';
import { withApp } from '../app/with-app.tsx';
import { type AlertListView, alertQueryOf, readAlertView, writeAlertView } from '../shared/alert-url.ts';
import { Loaded } from '../shared/Loaded.tsx';
import { SeverityCounts } from '../shared/SeverityCounts.tsx';
import { all, useApi } from '../shared/use-api.ts';
import { replaceUrl, useUrlView } from '../shared/use-url-view.ts';
import { AlertsTab } from './AlertsTab.tsx';
import { AlertTabs } from './AlertTabs.tsx';
import { EMPTY_DRAFT, type RuleDraft } from './rule-draft.ts';
import { PREFILL_PARAMS, readRulePrefill } from './rule-prefill.ts';
import '../shared/panels.css';
import '../shared/console-screens.css';
import './alerts.css';

// The rules tab (its table and, later, its editor) loads when it is first opened.
const RulesTab = lazy(() => import('./RulesTab.tsx').then((module) => ({ default: module.RulesTab })));

const queryOf = (view: AlertListView): string => new URLSearchParams(alertQueryOf(view)).toString();

/** The view in the URL; a rule prefill link opens the rules tab. */
const readAlertsScreenView = (search: string): AlertListView => {
  const view = readAlertView(search);
  return readRulePrefill(search) ? { ...view, tab: 'rules' } : view;
};

/** The view's query string; a prefill link's parameters stay while its editor is open. */
const writeAlertsScreenView = (view: AlertListView, current: URLSearchParams): string => {
  const url = new URL('http://x');
  url.search = writeAlertView(view);
  for (const name of PREFILL_PARAMS) {
    const value = current.get(name);
    if (value !== null && view.tab === 'rules') url.searchParams.set(name, value);
  }
  return url.search;
};

/** /console/alert/{space_id}: the space's alerts (filters in the URL, bulk triage) and its alert rules, as two tabs. */
export function AlertsScreen() {
  const spaceId = useStore($spaceId);
  const space = useApi($space);
  const rules = useApi($alertRules);
  const members = useApi($members);
  const alerts = useApi($alerts);
  const [startNew, setStartNew] = useState<RuleDraft | null>(null);
  // The view is in the URL, read after hydration (the pre-rendered shell has none); it keys the list's store. A rule
  // prefill link (from an event) opens the rules tab with a new rule.
  const [view, changeUrl] = useUrlView(readAlertsScreenView, writeAlertsScreenView, {
    onRead: (initial) => {
      setStartNew(readRulePrefill(location.search));
      $alertListQuery.set(queryOf(initial));
    },
  });
  useEffect(() => () => $alertListQuery.set(undefined), []);

  const change = useCallback(
    (next: AlertListView) => {
      changeUrl(next);
      $alertListQuery.set(queryOf(next));
    },
    [changeUrl],
  );

  const dropPrefill = useCallback(() => {
    replaceUrl((url) => {
      for (const name of PREFILL_PARAMS) url.searchParams.delete(name);
    });
    setStartNew(null);
  }, []);

  const loaded = all(space.loaded, rules.loaded, members.loaded);
  const retry = (): void => {
    space.retry();
    rules.retry();
    members.retry();
  };
  const body = (
    <Loaded spaceId={spaceId} loaded={loaded} retry={retry} loading="Loading alerts…" view={view}>
      {(data, view) => {
        const [{ id, role }, { items: ruleItems }, { items: memberItems }] = data;
        const canEdit = atLeast(role, 'admin');
        const canWork = atLeast(role, 'analyst');
        return (
          <AlertTabs active={view.tab} onSelect={(tab) => change({ ...view, tab })}>
            {view.tab === 'alerts' ? (
              <AlertsTab
                spaceId={id}
                view={view}
                query={queryOf(view)}
                onChange={change}
                canWork={canWork}
                canEditRules={canEdit}
                rules={ruleItems}
                members={memberItems}
                onNewRule={() => {
                  setStartNew(EMPTY_DRAFT);
                  change({ ...view, tab: 'rules' });
                }}
              />
            ) : (
              <Suspense fallback={<p role="status">Loading the rules…</p>}>
                <RulesTab
                  spaceId={id}
                  rules={ruleItems}
                  canEdit={canEdit}
                  canWork={canWork}
                  startNew={startNew}
                  onStartNewClosed={dropPrefill}
                />
              </Suspense>
            )}
          </AlertTabs>
        );
      }}
    </Loaded>
  );

  return (
    <section className="card panel sg-sources sg-al" aria-labelledby="sg-alerts-heading">
      <div className="row sg-al-head">
        <h2 id="sg-alerts-heading">Alerts</h2>
        {alerts.loaded.state === 'ready' && <SeverityCounts counts={alerts.loaded.data.counts} />}
        <button
          type="button"
          className="button secondary sg-al-refresh"
          onClick={() => invalidateApi($alerts, $alertRules)}
        >
          Refresh
        </button>
      </div>
      {body}
    </section>
  );
}

export default withApp(AlertsScreen);
