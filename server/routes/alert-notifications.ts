import { AlertRuleParams } from '../../contract/alert-rules.ts';
import { ChannelTestResult } from '../../contract/notifications.ts';
import { inSpace } from '../caller.ts';
import { createRouter, json, route } from '../router.ts';
import { sendTestNotifications } from '../services/notifications/test-send.ts';

/** Notifications of alert rules: the editor's "Send test" button, for admins and owners. */
export const alertNotificationRoutes = createRouter().openapi(
  route('admin', {
    method: 'post',
    path: '/{spaceId}/alert-rules/{id}/test',
    summary: 'Send a test notification to each channel of the rule at once, and answer how each went',
    request: { params: AlertRuleParams },
    responses: { 200: json(ChannelTestResult, 'One result per channel, in the rule’s order') },
  }),
  async (c) => c.json(await sendTestNotifications(inSpace(c), c.req.valid('param').id), 200),
);
