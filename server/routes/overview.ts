import { SpaceParams } from '../../contract/common.ts';
import { OverviewSummary, SummaryQuery } from '../../contract/overview.ts';
import { inSpace } from '../caller.ts';
import { createRouter, json, route } from '../router.ts';
import { overviewSummary } from '../services/overview/summary.ts';

/** The overview's own reads: the summary strip over a range and the period before it. */
export const overviewRoutes = createRouter().openapi(
  route('viewer', {
    method: 'get',
    path: '/{spaceId}/overview/summary',
    summary:
      'Requests, blocked, block rate, client addresses, open alerts and critical findings, against the period before',
    description: [
      'Each number over `from`..`to` (default: the last 24 hours, `to` inclusive) and over the period of equal length',
      'just before it (`previousFrom` up to, not including, `from`). Requests are events of every action, blocked',
      'those with action `blocked`, the block rate blocked out of requests (null with no requests), client addresses',
      'the distinct `ip` values. Open alerts and open critical findings are counted now; their `new` counts are the',
      'alerts first seen, and the critical findings first found, in each period, whatever their status now.',
    ].join(' '),
    request: { params: SpaceParams, query: SummaryQuery },
    responses: { 200: json(OverviewSummary, 'The summary') },
  }),
  async (c) => c.json(await overviewSummary(inSpace(c), c.req.valid('query')), 200),
);
