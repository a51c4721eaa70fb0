import { ActivityChoices, ActivityExportQuery, ActivityPage, ActivityQuery } from '../../contract/activity.ts';
import { SpaceParams } from '../../contract/common.ts';
import { inSpace } from '../caller.ts';
import { createRouter, json, route, streamDownload } from '../router.ts';
import { activityChoices, exportActivity, spaceActivity } from '../services/activity/log.ts';

/** The audit log of a space: filtered, cursor-paginated list and NDJSON or CSV export. */
export const activityRoutes = createRouter()
  .openapi(
    route('viewer', {
      method: 'get',
      path: '/{spaceId}/activity',
      summary: 'Audit records, newest first; filters actor, action, objectType, from, to',
      request: { params: SpaceParams, query: ActivityQuery },
      responses: { 200: json(ActivityPage, 'One page') },
    }),
    async (c) => c.json(await spaceActivity(inSpace(c), c.req.valid('query')), 200),
  )
  .openapi(
    route('viewer', {
      method: 'get',
      path: '/{spaceId}/activity/choices',
      summary: 'The actions, object types and actors present in the audit log, for the filters',
      request: { params: SpaceParams },
      responses: { 200: json(ActivityChoices, 'What the log holds') },
    }),
    async (c) => c.json(await activityChoices(inSpace(c)), 200),
  )
  .openapi(
    route('viewer', {
      method: 'get',
      path: '/{spaceId}/activity/export',
      summary: 'Export the (filtered) audit log as NDJSON or CSV',
      request: { params: SpaceParams, query: ActivityExportQuery },
      responses: {
        200: {
          description: 'The records, newest first',
          content: {
            'application/x-ndjson': { schema: { type: 'string' } },
            'text/csv': { schema: { type: 'string' } },
          },
        },
      },
    }),
    async (c) => streamDownload(c, await exportActivity(inSpace(c), c.req.valid('query'))),
  );
