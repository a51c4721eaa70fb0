/**
 * The bundled provider: test mode, no real charge. Only the test cards of contract/constants/billing.ts are accepted
 * (Luhn-checked); each behaves as its name says, and the behaviour travels with the payment-method token so a
 * stored card keeps behaving so at renewal (`renewal_declined`: the first charge succeeds, renewals are declined).
 */
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { type CardBehaviour, testCards } from '../../../contract/constants/billing.ts';
import { systemClock } from '../../clock.ts';
import { cardBrand, cardDigits, luhnValid } from './luhn.ts';
import {
  type BillingProvider,
  CardRejected,
  type Checkout,
  type PaymentOutcome,
  type ProviderEvent,
  type ProviderInvoice,
} from './provider.ts';

const behaviourOf = new Map<string, CardBehaviour>(
  Object.entries(testCards).map(([behaviour, card]) => [card.number, behaviour as CardBehaviour]),
);

const failures = {
  card_declined: 'Your card was declined.',
  insufficient_funds: 'Your card has insufficient funds.',
} as const;

/** A local provider; `secret` signs its events (`t=<unix>,v1=<hex hmac of "t.body">`, as Stripe does). */
export function createLocalProvider(
  secret = 'local-test-secret',
  /** The provider's own clock, for its records (the console passes its own). */
  now: () => Date = systemClock,
): BillingProvider {
  const payments = new Map<string, ProviderInvoice & { spaceId: string }>();
  const sign = (t: number, body: string) => createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
  return {
    testMode: true,
    async createCheckout(_charge, with_) {
      const paymentId = `pi_test_${randomUUID().replaceAll('-', '')}`;
      if (with_.paymentMethod) return { paymentId, paymentMethod: with_.paymentMethod };
      const { card } = with_;
      const digits = cardDigits(card.number);
      if (!digits || !luhnValid(digits)) throw new CardRejected('number', 'This card number is not valid.');
      const behaviour = behaviourOf.get(digits);
      if (!behaviour)
        throw new CardRejected('number', `Test mode takes only test cards, such as ${testCards.success.number}.`);
      return {
        paymentId,
        paymentMethod: {
          token: `pm_test_${randomUUID().replaceAll('-', '')}`,
          brand: cardBrand(digits),
          last4: digits.slice(-4),
          behaviour,
        },
      };
    },
    async confirmPayment(checkout: Checkout, charge): Promise<PaymentOutcome> {
      const behaviour = checkout.paymentMethod.behaviour ?? 'success';
      const code =
        behaviour === 'declined' || (behaviour === 'renewal_declined' && charge.offSession)
          ? 'card_declined'
          : behaviour === 'insufficient_funds'
            ? 'insufficient_funds'
            : null;
      payments.set(checkout.paymentId, {
        spaceId: charge.spaceId,
        paymentId: checkout.paymentId,
        amountCents: charge.amountCents,
        status: code ? 'failed' : 'succeeded',
        createdAt: now(),
      });
      if (code) return { status: 'failed', paymentId: checkout.paymentId, code, message: failures[code] };
      return { status: 'succeeded', paymentId: checkout.paymentId };
    },
    async refund({ paymentId }) {
      const payment = payments.get(paymentId);
      if (payment) payment.status = 'refunded';
      return { refundId: `re_test_${randomUUID().replaceAll('-', '')}` };
    },
    verifyEvent(rawBody, signature, now): ProviderEvent | null {
      const parts = Object.fromEntries(signature.split(',').map((part) => part.split('=') as [string, string]));
      const t = Number(parts.t);
      if (!Number.isInteger(t) || !parts.v1 || Math.abs(now.getTime() / 1000 - t) > 300) return null;
      const expected = Buffer.from(sign(t, rawBody), 'hex');
      const given = Buffer.from(parts.v1, 'hex');
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
      try {
        return JSON.parse(rawBody) as ProviderEvent;
      } catch {
        return null;
      }
    },
    async listInvoices(spaceId) {
      return [...payments.values()]
        .filter((p) => p.spaceId === spaceId)
        .map(({ spaceId: _, ...p }) => p)
        .reverse();
    },
  };
}

/** Signs an event body as the local provider expects it (for tests and local tooling). */
export function signLocalEvent(rawBody: string, now: Date, secret = 'local-test-secret'): string {
  const t = Math.floor(now.getTime() / 1000);
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${rawBody}`).digest('hex')}`;
}
