import { Suppression } from '../../contract/alert-rules.ts';
import {
  Alert,
  AlertDetail,
  AlertList,
  AlertParams,
  AlertQuery,
  BulkAlertAnswer,
  BulkAlertBody,
  NoteBody,
  SuppressBody,
  UpdateAlertBody,
} from '../../contract/alerts.ts';
import { SpaceParams } from '../../contract/common.ts';
import { TriageEntry } from '../../contract/triage.ts';
import { WafAlertContext, WafAlertParams } from '../../contract/waf.ts';
import { inSpace } from '../caller.ts';
import { body, createRouter, json, route } from '../router.ts';
import { getAlert } from '../services/alerts/detail.ts';
import { listAlerts } from '../services/alerts/list.ts';
import { addNote, bulkUpdateAlerts, suppressGroup, updateAlert } from '../services/alerts/triage.ts';
import { wafAlertContext } from '../services/alerts/waf/waf-context.ts';

/** Alerts of a space (docs/product.md §7): everyone reads; analysts and up work them. */
export const alertRoutes = createRouter()
  .openapi(
    route('viewer', {
      method: 'get',
      path: '/{spaceId}/alerts',
      summary:
        'Alerts, latest activity first, filtered by status, severity, rule, assignee (`me`, `none`) and text; with counts by severity',
      request: { params: SpaceParams, query: AlertQuery },
      responses: { 200: json(AlertList, 'A page of alerts') },
    }),
    async (c) => c.json(await listAlerts(inSpace(c), c.req.valid('query')), 200),
  )
  .openapi(
    route('analyst', {
      method: 'post',
      path: '/{spaceId}/alerts/bulk',
      summary: 'The same change (status, assignee, snooze) to many alerts, with one reason',
      request: { params: SpaceParams, body: body(BulkAlertBody) },
      responses: { 200: json(BulkAlertAnswer, 'The alerts after the change') },
    }),
    async (c) => c.json(await bulkUpdateAlerts(inSpace(c), c.req.valid('json')), 200),
  )
  .openapi(
    route('viewer', {
      method: 'get',
      path: '/{spaceId}/alerts/{id}',
      summary: 'One alert: timeline, kept matching events, notifications, rule',
      request: { params: AlertParams },
      responses: { 200: json(AlertDetail, 'The alert') },
    }),
    async (c) => c.json(await getAlert(inSpace(c), c.req.valid('param').id), 200),
  )
  .openapi(
    route('analyst', {
      method: 'patch',
      path: '/{spaceId}/alerts/{id}',
      summary:
        'Acknowledge, resolve, reopen, assign or snooze (acknowledged until the time passes, then open), with a reason',
      request: { params: AlertParams, body: body(UpdateAlertBody) },
      responses: { 200: json(Alert, 'The alert') },
    }),
    async (c) => c.json(await updateAlert(inSpace(c), c.req.valid('param').id, c.req.valid('json')), 200),
  )
  .openapi(
    route('analyst', {
      method: 'post',
      path: '/{spaceId}/alerts/{id}/notes',
      summary: 'Add a note in Markdown (GitHub flavour, no raw HTML) to the alert’s timeline',
      request: { params: AlertParams, body: body(NoteBody) },
      responses: { 201: json(TriageEntry, 'The note') },
    }),
    async (c) => c.json(await addNote(inSpace(c), c.req.valid('param').id, c.req.valid('json')), 201),
  )
  .openapi(
    route('analyst', {
      method: 'post',
      path: '/{spaceId}/alerts/{id}/suppress',
      summary: 'Do not alert on this alert’s group for N days, with a reason (listed on the rule, removable)',
      request: { params: AlertParams, body: body(SuppressBody) },
      responses: { 201: json(Suppression, 'The suppression') },
    }),
    async (c) => c.json(await suppressGroup(inSpace(c), c.req.valid('param').id, c.req.valid('json')), 201),
  )
  .openapi(
    route('viewer', {
      method: 'get',
      path: '/{spaceId}/alerts/{id}/waf/{wafId}',
      summary:
        'A WAF alert’s context: the firewall’s mode and version when the alert opened and now, and the triggering requests with their matched rules',
      request: { params: WafAlertParams },
      responses: { 200: json(WafAlertContext, 'The context') },
    }),
    async (c) => {
      const { id, wafId } = c.req.valid('param');
      return c.json(await wafAlertContext(inSpace(c), id, wafId), 200);
    },
  );
