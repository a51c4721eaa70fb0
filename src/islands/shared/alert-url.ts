/** The alerts page's view in the URL query (tab and list filters), so a link reproduces what the user sees. */
import { type AlertStatus, alertStatuses } from '../../../contract/constants/alerts.ts';
import { type Severity, severities } from '../../../contract/constants/events.ts';

/** The two tabs of the alerts page. */
export type AlertsTab = 'alerts' | 'rules';

/** The list's filters and the tab; `assignee` is a member id, `me` or `none`. */
export interface AlertListView {
  readonly tab: AlertsTab;
  readonly status: readonly AlertStatus[];
  readonly severity: readonly Severity[];
  readonly ruleId: string | null;
  readonly assignee: string | null;
  readonly q: string;
}

/** What the list shows when the URL says nothing: open and acknowledged alerts of every severity. */
export const DEFAULT_STATUSES: readonly AlertStatus[] = ['open', 'acknowledged'];

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// Known values of a comma list, in the vocabulary's order, each once.
function listOf<T extends string>(value: string | null, known: readonly T[]): T[] {
  const given = new Set((value ?? '').split(','));
  return known.filter((item) => given.has(item));
}

const sameList = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && a.every((item, index) => item === b[index]);

/** Reads the view from a query string; unknown values are dropped, a missing status means open and acknowledged. */
export function readAlertView(search: string): AlertListView {
  const params = new URLSearchParams(search);
  const statusParam = params.get('status');
  const status = statusParam === null ? DEFAULT_STATUSES : listOf(statusParam, alertStatuses);
  const ruleId = params.get('ruleId');
  const assignee = params.get('assignee');
  return {
    tab: params.get('tab') === 'rules' ? 'rules' : 'alerts',
    status: status.length === 0 ? DEFAULT_STATUSES : status,
    severity: listOf(params.get('severity'), severities),
    ruleId: ruleId !== null && uuid.test(ruleId) ? ruleId : null,
    assignee: assignee === 'me' || assignee === 'none' || (assignee !== null && uuid.test(assignee)) ? assignee : null,
    q: (params.get('q') ?? '').trim(),
  };
}

/** Writes the view as a query string (with its `?`), leaving out what is the default. */
export function writeAlertView(view: AlertListView): string {
  const params = new URLSearchParams();
  if (view.tab === 'rules') params.set('tab', 'rules');
  if (!sameList(view.status, DEFAULT_STATUSES)) params.set('status', view.status.join(','));
  if (view.severity.length > 0) params.set('severity', view.severity.join(','));
  if (view.ruleId) params.set('ruleId', view.ruleId);
  if (view.assignee) params.set('assignee', view.assignee);
  if (view.q) params.set('q', view.q);
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** The query string of a tab of the alerts page with the default filters, for a link that only picks the tab. */
export function alertsTabSearch(tab: AlertsTab): string {
  return tab === 'rules' ? '?tab=rules' : '';
}

/** The list request's query for a view (the API's `GET .../alerts` parameters). */
export function alertQueryOf(view: AlertListView): Record<string, string> {
  const query: Record<string, string> = { status: view.status.join(',') };
  if (view.severity.length > 0) query.severity = view.severity.join(',');
  if (view.ruleId) query.ruleId = view.ruleId;
  if (view.assignee) query.assignee = view.assignee;
  if (view.q) query.q = view.q;
  return query;
}
