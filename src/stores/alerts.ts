/** Alert rules and alerts of the URL's space: the rules, the filtered alert list, one alert, and a rule's suppressions. */
import { atom } from 'nanostores';
import type { z } from 'zod';
import type {
  AlertRuleList,
  AlertRulePreviewBody,
  CreateAlertRuleBody,
  SuppressionList,
  UpdateAlertRuleBody,
} from '../../contract/alert-rules.ts';
import type { AlertDetail, AlertList, BulkAlertBody, SuppressBody, UpdateAlertBody } from '../../contract/alerts.ts';
import type { WafAlertContext } from '../../contract/waf.ts';
import { call, client } from '../lib/api.ts';
import { apiStore, invalidateApi } from './fetcher.ts';
import { $routeId, $routeWafId, $spaceId } from './route.ts';

// Detection runs in the background: the list and the alert are asked again this often while the tab is visible.
const LIVE = { revalidateInterval: 30_000 };

const space = client.spaces[':spaceId'];

/** The space's alert rules with when each last fired and how many of its alerts are active. */
export const $alertRules = apiStore<z.infer<typeof AlertRuleList>>('alert-rules', [$spaceId], (spaceId) =>
  call(space['alert-rules'].$get({ param: { spaceId } })),
);

/** The list's request query (`status=open,acknowledged&severity=high…`), set by the alerts screen from its URL. */
export const $alertListQuery = atom<string | undefined>(undefined);

/** The first page of the filtered alerts with the counts by severity. */
export const $alerts = apiStore<AlertList>(
  'alerts',
  [$spaceId, $alertListQuery],
  (spaceId, query) => loadAlerts(spaceId, query, null),
  LIVE,
);

/** One page of alerts for a list query (the `cursor` of the page before, or null for the first). */
export function loadAlerts(spaceId: string, query: string, cursor: string | null): Promise<AlertList> {
  const params: Record<string, string> = Object.fromEntries(new URLSearchParams(query));
  if (cursor) params.cursor = cursor;
  return call(space.alerts.$get({ param: { spaceId }, query: params }));
}

/** The alert of the URL (`{id}`) with its timeline, matching events, deliveries and rule. */
export const $alert = apiStore<AlertDetail>(
  'alert',
  [$spaceId, $routeId],
  (spaceId, id) => call(space.alerts[':id'].$get({ param: { spaceId, id } })),
  LIVE,
);

/** The rule whose suppressions the editor shows. */
export const $suppressionRuleId = atom<string | null>(null);

/** The suppressions of `$suppressionRuleId`'s rule. */
export const $ruleSuppressions = apiStore<z.infer<typeof SuppressionList>>(
  'alert-suppressions',
  [$spaceId, $suppressionRuleId],
  (spaceId, id) => call(space['alert-rules'][':id'].suppressions.$get({ param: { spaceId, id } })),
);

/** The WAF alert of the URL (`{waf_id}`, `{id}`): its firewall then and now, and its requests with their matched rules. */
export const $wafAlert = apiStore<z.infer<typeof WafAlertContext>>(
  'waf-alert',
  [$spaceId, $routeId, $routeWafId],
  (spaceId, id, wafId) => call(space.alerts[':id'].waf[':wafId'].$get({ param: { spaceId, id, wafId } })),
  LIVE,
);

// Writes: each sends one change and refreshes what it changes, wherever it is shown.

/** After a change to one alert: the alert (plain or WAF view), the list, and the suppressions of its rule. */
function refreshAlert(): void {
  invalidateApi($alert, $alerts, $wafAlert, $ruleSuppressions);
}

/** Triages one alert (status, assignee, snooze, with an optional reason). */
export async function changeAlert(spaceId: string, id: string, change: UpdateAlertBody) {
  const answer = await call(space.alerts[':id'].$patch({ param: { spaceId, id }, json: change }));
  refreshAlert();
  return answer;
}

/** Triages several alerts at once; the list and the rules' active counts refresh. */
export async function changeAlerts(spaceId: string, body: BulkAlertBody) {
  const answer = await call(space.alerts.bulk.$post({ param: { spaceId }, json: body }));
  invalidateApi($alerts, $alertRules);
  return answer;
}

/** Adds a Markdown note to an alert. */
export async function addAlertNote(spaceId: string, id: string, body: string) {
  const answer = await call(space.alerts[':id'].notes.$post({ param: { spaceId, id }, json: { body } }));
  refreshAlert();
  return answer;
}

/** Stops the alert's rule alerting on its group for some days. */
export async function suppressAlertGroup(spaceId: string, id: string, body: z.input<typeof SuppressBody>) {
  const answer = await call(space.alerts[':id'].suppress.$post({ param: { spaceId, id }, json: body }));
  refreshAlert();
  return answer;
}

/** Creates a rule (`id` null) or saves one; the rules refresh. */
export async function saveAlertRule(
  spaceId: string,
  id: string | null,
  body: CreateAlertRuleBody & UpdateAlertRuleBody,
) {
  const rules = space['alert-rules'];
  const saved = id
    ? await call(rules[':id'].$patch({ param: { spaceId, id }, json: body }))
    : await call(rules.$post({ param: { spaceId }, json: body }));
  invalidateApi($alertRules);
  return saved;
}

/** Turns a rule on or off; the rules refresh. */
export async function setAlertRuleEnabled(spaceId: string, id: string, enabled: boolean) {
  const saved = await call(space['alert-rules'][':id'].$patch({ param: { spaceId, id }, json: { enabled } }));
  invalidateApi($alertRules);
  return saved;
}

/** Deletes a rule; the rules refresh. */
export async function deleteAlertRule(spaceId: string, id: string): Promise<void> {
  await call(space['alert-rules'][':id'].$delete({ param: { spaceId, id } }));
  invalidateApi($alertRules);
}

/** Lifts one suppression of a rule; its suppressions refresh. */
export async function deleteRuleSuppression(spaceId: string, id: string, suppressionId: string): Promise<void> {
  await call(
    space['alert-rules'][':id'].suppressions[':suppressionId'].$delete({ param: { spaceId, id, suppressionId } }),
  );
  invalidateApi($ruleSuppressions);
}

/** How often a rule as typed would have fired over the last hours, by group (changes nothing). */
export function previewAlertRule(spaceId: string, body: AlertRulePreviewBody) {
  return call(space['alert-rules'].preview.$post({ param: { spaceId }, json: body }));
}

/** Sends a test notification to each channel of a saved rule, with each channel's answer. */
export function testAlertRuleChannels(spaceId: string, id: string) {
  return call(space['alert-rules'][':id'].test.$post({ param: { spaceId, id } }));
}
