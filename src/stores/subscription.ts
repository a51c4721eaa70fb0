/** The subscription of the URL's space (owners only): plan, usage, checkout, payments. */
import type {
  CheckoutBody,
  CheckoutPreview,
  CheckoutPreviewBody,
  CheckoutResult,
  PaymentList,
  Subscription,
} from '../../contract/subscription.ts';
import { apiUrl, call, client } from '../lib/api.ts';
import { apiStore, invalidateApi } from './fetcher.ts';
import { $spaceId } from './route.ts';
import { $space, $spaces } from './space.ts';

const space = client.spaces[':spaceId'];

/** Plan, period, scheduled change, payment method and this period's usage against every limit. */
export const $subscription = apiStore<Subscription>('subscription', [$spaceId], (spaceId) =>
  call(space.subscription.$get({ param: { spaceId } })),
);

/** Every invoice of the space, newest first. */
export const $payments = apiStore<PaymentList>('payments', [$spaceId], (spaceId) =>
  call(space.payments.$get({ param: { spaceId } })),
);

/** What a change of plan or interval would charge now, line by line, or when it would take effect. */
export function previewCheckout(spaceId: string, body: CheckoutPreviewBody): Promise<CheckoutPreview> {
  return call(space.subscription.checkout.preview.$post({ param: { spaceId }, json: body }));
}

/**
 * Pays for (or schedules) a plan. `key` is the attempt's Idempotency-Key: sending the same attempt again (after a
 * lost answer) never charges twice.
 */
export async function checkout(spaceId: string, body: CheckoutBody, key: string): Promise<CheckoutResult> {
  const result = await call(
    space.subscription.checkout.$post({ param: { spaceId }, header: { 'idempotency-key': key }, json: body }),
  );
  invalidateApi($subscription, $payments, $space, $spaces);
  return result;
}

/** Cancels a downgrade (or interval change) scheduled for the period's end. */
export async function cancelScheduledChange(spaceId: string): Promise<void> {
  await call(space.subscription['scheduled-change'].$delete({ param: { spaceId } }));
  invalidateApi($subscription);
}

/** Refunds a paid invoice in full; the current period's payment ends the paid plan (the space is on Free at once). */
export async function refundPayment(spaceId: string, id: string): Promise<void> {
  await call(space.payments[':id'].refund.$post({ param: { spaceId, id } }));
  invalidateApi($payments, $subscription, $space, $spaces);
}

/** The printable receipt of a payment: an HTML page the API serves. */
export function receiptUrl(spaceId: string, paymentId: string): string {
  return apiUrl(`/spaces/${spaceId}/payments/${paymentId}/receipt`);
}
