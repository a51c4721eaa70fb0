import { z } from 'zod';
import { SpaceParams } from '../../contract/common.ts';
import { ApiErrorBody } from '../../contract/errors.ts';
import {
  CheckoutBody,
  CheckoutPreview,
  CheckoutPreviewBody,
  CheckoutResult,
  Payment,
  PaymentList,
  PaymentParams,
  Subscription,
} from '../../contract/subscription.ts';
import { inSpace } from '../caller.ts';
import { body, createRouter, json, route } from '../router.ts';
import { checkout, previewCheckout } from '../services/billing/checkout.ts';
import { receiptOf } from '../services/billing/receipt.ts';
import {
  cancelScheduledChange,
  getSubscription,
  listPayments,
  refundPayment,
} from '../services/billing/subscription.ts';

/** Checkout's header: a retry under the same key answers the same, without a second charge. */
const IdempotencyHeaders = z.object({
  'idempotency-key': z
    .string()
    .min(8, 'Send an Idempotency-Key of 8 to 200 characters.')
    .max(200, 'Send an Idempotency-Key of 8 to 200 characters.')
    .regex(/^[\x21-\x7e]+$/, 'Use visible ASCII characters in the Idempotency-Key.'),
});

const ownerOnly = { hideBelow: true } as const;
const declined = json(ApiErrorBody, 'The card was declined (`card_declined`, `insufficient_funds`): nothing changed');

/** The space's subscription and payments: owners only; every other role gets 404, as non-members do. */
export const subscriptionRoutes = createRouter()
  .openapi(
    route(
      'owner',
      {
        method: 'get',
        path: '/{spaceId}/subscription',
        summary: 'The plan, interval, status, period, scheduled change and usage against the plan (test mode)',
        request: { params: SpaceParams },
        responses: { 200: json(Subscription, 'The subscription') },
      },
      ownerOnly,
    ),
    async (c) => c.json(await getSubscription(inSpace(c)), 200),
  )
  .openapi(
    route(
      'owner',
      {
        method: 'post',
        path: '/{spaceId}/subscription/checkout/preview',
        summary: 'What a checkout would charge now, line by line in cents (proration included), and the new period',
        request: { params: SpaceParams, body: body(CheckoutPreviewBody) },
        responses: { 200: json(CheckoutPreview, 'The lines and period; for a lower plan, when it takes effect') },
      },
      ownerOnly,
    ),
    async (c) => c.json(await previewCheckout(inSpace(c), c.req.valid('json')), 200),
  )
  .openapi(
    route(
      'owner',
      {
        method: 'post',
        path: '/{spaceId}/subscription/checkout',
        summary:
          'Change the plan: pay now (from Free, an upgrade) or schedule a lower plan for the period end (409 `usage_over_plan` while usage exceeds it). Needs an Idempotency-Key.',
        request: { params: SpaceParams, headers: IdempotencyHeaders, body: body(CheckoutBody) },
        responses: {
          200: json(CheckoutResult, 'The subscription, and the invoice paid (null when scheduled)'),
          402: declined,
        },
      },
      ownerOnly,
    ),
    async (c) => c.json(await checkout(inSpace(c), c.req.valid('json'), c.req.valid('header')['idempotency-key']), 200),
  )
  .openapi(
    route(
      'owner',
      {
        method: 'delete',
        path: '/{spaceId}/subscription/scheduled-change',
        summary: 'Cancel the change scheduled for the period end (if any)',
        request: { params: SpaceParams },
        responses: { 200: json(Subscription, 'The subscription, with no scheduled change') },
      },
      ownerOnly,
    ),
    async (c) => c.json(await cancelScheduledChange(inSpace(c)), 200),
  )
  .openapi(
    route(
      'owner',
      {
        method: 'get',
        path: '/{spaceId}/payments',
        summary: 'Payment history, newest first: number, date, plan, period, amount, status',
        request: { params: SpaceParams },
        responses: { 200: json(PaymentList, 'Every invoice of the space') },
      },
      ownerOnly,
    ),
    async (c) => c.json(await listPayments(inSpace(c)), 200),
  )
  .openapi(
    route(
      'owner',
      {
        method: 'get',
        path: '/{spaceId}/payments/{id}/receipt',
        summary: 'The printable receipt of an invoice: a standalone HTML page (A4 and Letter)',
        request: { params: PaymentParams },
        responses: { 200: { description: 'The receipt', content: { 'text/html': { schema: z.string() } } } },
      },
      ownerOnly,
    ),
    async (c) => c.html(await receiptOf(inSpace(c), c.req.valid('param').id), 200),
  )
  .openapi(
    route(
      'owner',
      {
        method: 'post',
        path: '/{spaceId}/payments/{id}/refund',
        summary:
          "Refund a paid invoice in full through the provider; refunding the current period's payment ends the paid plan now (Free at once)",
        request: { params: PaymentParams },
        responses: { 200: json(Payment, 'The invoice, refunded') },
      },
      ownerOnly,
    ),
    async (c) => c.json(await refundPayment(inSpace(c), c.req.valid('param').id), 200),
  );
