import {
  AlertRule,
  AlertRuleList,
  AlertRuleParams,
  AlertRulePreview,
  AlertRulePreviewBody,
  CreateAlertRuleBody,
  SuppressionList,
  SuppressionParams,
  UpdateAlertRuleBody,
} from '../../contract/alert-rules.ts';
import { Ok, SpaceParams } from '../../contract/common.ts';
import { inSpace } from '../caller.ts';
import { body, createRouter, json, route } from '../router.ts';
import { channelChecks } from '../services/alerts/rules/channel-check.ts';
import { previewRule } from '../services/alerts/rules/preview.ts';
import { listSuppressions, removeSuppression } from '../services/alerts/rules/rule-suppressions.ts';
import {
  createAlertRule,
  deleteAlertRule,
  getAlertRule,
  listAlertRules,
  updateAlertRule,
} from '../services/alerts/rules/rules.ts';

/** Alert rules of a space (docs/product.md §7): everyone reads, admins and owners change, analysts preview. */
export const alertRuleRoutes = createRouter()
  .openapi(
    route('viewer', {
      method: 'get',
      path: '/{spaceId}/alert-rules',
      summary: 'Alert rules by name, each with its open and acknowledged alerts',
      request: { params: SpaceParams },
      responses: { 200: json(AlertRuleList, 'Rules') },
    }),
    async (c) => c.json(await listAlertRules(inSpace(c)), 200),
  )
  .openapi(
    route('admin', {
      method: 'post',
      path: '/{spaceId}/alert-rules',
      summary: 'Create a rule within the plan’s limit: match, threshold or silence; webhook secrets are never answered',
      request: { params: SpaceParams, body: body(CreateAlertRuleBody) },
      responses: { 201: json(AlertRule, 'The rule') },
    }),
    async (c) => {
      const sc = inSpace(c);
      return c.json(await createAlertRule(sc, c.req.valid('json'), channelChecks(sc.deps)), 201);
    },
  )
  .openapi(
    route('analyst', {
      method: 'post',
      path: '/{spaceId}/alert-rules/preview',
      summary: 'Try a rule on stored events: how often it would have fired, and for which groups',
      request: { params: SpaceParams, body: body(AlertRulePreviewBody) },
      responses: { 200: json(AlertRulePreview, 'The preview') },
    }),
    async (c) => c.json(await previewRule(inSpace(c), c.req.valid('json')), 200),
  )
  .openapi(
    route('viewer', {
      method: 'get',
      path: '/{spaceId}/alert-rules/{id}',
      summary: 'One rule',
      request: { params: AlertRuleParams },
      responses: { 200: json(AlertRule, 'The rule') },
    }),
    async (c) => c.json(await getAlertRule(inSpace(c), c.req.valid('param').id), 200),
  )
  .openapi(
    route('admin', {
      method: 'patch',
      path: '/{spaceId}/alert-rules/{id}',
      summary:
        'Change any of a rule’s fields; a webhook channel given without a secret keeps the secret of the same URL',
      request: { params: AlertRuleParams, body: body(UpdateAlertRuleBody) },
      responses: { 200: json(AlertRule, 'The rule') },
    }),
    async (c) => {
      const sc = inSpace(c);
      return c.json(
        await updateAlertRule(sc, c.req.valid('param').id, c.req.valid('json'), channelChecks(sc.deps)),
        200,
      );
    },
  )
  .openapi(
    route('admin', {
      method: 'delete',
      path: '/{spaceId}/alert-rules/{id}',
      summary: 'Delete a rule; its alerts stay with their history',
      request: { params: AlertRuleParams },
      responses: { 200: json(Ok, 'Deleted') },
    }),
    async (c) => {
      await deleteAlertRule(inSpace(c), c.req.valid('param').id);
      return c.json({ ok: true as const }, 200);
    },
  )
  .openapi(
    route('viewer', {
      method: 'get',
      path: '/{spaceId}/alert-rules/{id}/suppressions',
      summary: 'The rule’s suppressions in force: group, reason, who, until when',
      request: { params: AlertRuleParams },
      responses: { 200: json(SuppressionList, 'Suppressions') },
    }),
    async (c) => c.json(await listSuppressions(inSpace(c), c.req.valid('param').id), 200),
  )
  .openapi(
    route('analyst', {
      method: 'delete',
      path: '/{spaceId}/alert-rules/{id}/suppressions/{suppressionId}',
      summary: 'Remove a suppression before it expires: the group alerts again',
      request: { params: SuppressionParams },
      responses: { 200: json(Ok, 'Removed') },
    }),
    async (c) => {
      const { id, suppressionId } = c.req.valid('param');
      await removeSuppression(inSpace(c), id, suppressionId);
      return c.json({ ok: true as const }, 200);
    },
  );
