import { SpaceParams } from '../../contract/common.ts';
import { dashboardLimits } from '../../contract/constants/dashboards.ts';
import { WidgetQueryBody, WidgetResult } from '../../contract/dashboards.ts';
import { inSpace } from '../caller.ts';
import { body, createRouter, json, route } from '../router.ts';
import { widgetQuery } from '../services/dashboards/query.ts';

/** One dashboard widget's query over the space's events (docs/dashboard-queries.md). */
export const dashboardQueryRoutes = createRouter().openapi(
  route('viewer', {
    method: 'post',
    path: '/{spaceId}/query',
    summary: "One dashboard widget's query over the events of a time range",
    description: [
      'A metric (count of events, distinct values of a field, sum or average of a numeric field) of the events',
      'matching `query.filter` (the event query language) between `from` and `to` (now, now-24h, or RFC 3339),',
      'grouped by time bucket (every bucket of the range, x = its start in epoch ms), by the top values of a field',
      `(default ${dashboardLimits.fieldLimitDefault}, at most ${dashboardLimits.fieldLimitMax}), or not at all.`,
      `At most ${dashboardLimits.maxBuckets} time buckets. \`fromRollups\` tells whether the rollups answered.`,
    ].join(' '),
    request: { params: SpaceParams, body: body(WidgetQueryBody) },
    responses: { 200: json(WidgetResult, 'One series') },
  }),
  async (c) => c.json(await widgetQuery(inSpace(c), c.req.valid('json')), 200),
);
