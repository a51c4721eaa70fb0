/** Alert rules and alerts of the URL's space (issue #15): the rules, the filtered alert list, one alert, and a rule's suppressions. */
import { atom } from 'nanostores';
import type { z } from 'zod';
import type { AlertRuleList, SuppressionList } from '../../contract/alert-rules.ts';
import type { AlertDetail, AlertList } from '../../contract/alerts.ts';
import type { WafAlertContext } from '../../contract/waf.ts';
import { call, client } from '../lib/api.ts';
import { apiStore } from './fetcher.ts';
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

/** The space's newest open alerts (five) and its open alerts by severity, for the overview. */
export const $openAlerts = apiStore<AlertList>(
  'open-alerts',
  [$spaceId],
  (spaceId) => call(space.alerts.$get({ param: { spaceId }, query: { status: 'open', limit: '5' } })),
  LIVE,
);
