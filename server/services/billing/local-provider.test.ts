import { expect, test } from 'vitest';
import { testCards } from '../../../contract/constants/billing.ts';
import { createLocalProvider, signLocalEvent } from './local-provider.ts';
import { CardRejected } from './provider.ts';

const charge = (offSession = false) => ({
  spaceId: 's',
  amountCents: 4900,
  description: 'Pro',
  idempotencyKey: 'k',
  offSession,
});
const card = (number: string) => ({ number, expMonth: 12, expYear: 2030, cvc: '123' });

test('each test card behaves as its name says; the token carries brand, last four and behaviour', async () => {
  const provider = createLocalProvider();
  expect(provider.testMode).toBe(true);
  const outcomes: Record<string, string> = {};
  for (const [name, { number }] of Object.entries(testCards)) {
    const session = await provider.createCheckout(charge(), { card: card(number) });
    expect(session.paymentMethod.last4).toBe(number.slice(-4));
    expect(JSON.stringify(session)).not.toContain(number);
    const now = await provider.confirmPayment(session, charge());
    const later = await provider.confirmPayment(session, charge(true));
    outcomes[name] =
      `${now.status === 'failed' ? now.code : now.status}/${later.status === 'failed' ? later.code : later.status}`;
  }
  expect(outcomes).toEqual({
    success: 'succeeded/succeeded',
    declined: 'card_declined/card_declined',
    insufficient_funds: 'insufficient_funds/insufficient_funds',
    renewal_declined: 'succeeded/card_declined',
  });
  await expect(provider.createCheckout(charge(), { card: card('4242424242424241') })).rejects.toBeInstanceOf(
    CardRejected,
  );
  expect((await provider.listInvoices('s')).length).toBe(4);
});

test('events are accepted only with a fresh, correct signature', () => {
  const provider = createLocalProvider();
  const now = new Date('2026-11-24T00:00:00Z');
  const body = JSON.stringify({ id: 'evt_1', type: 'payment_intent.succeeded', data: {} });
  const signature = signLocalEvent(body, now);
  expect(provider.verifyEvent(body, signature, now)?.id).toBe('evt_1');
  expect(provider.verifyEvent(`${body} `, signature, now)).toBeNull();
  expect(provider.verifyEvent(body, signature, new Date(now.getTime() + 600_000))).toBeNull();
  expect(provider.verifyEvent(body, 't=1,v1=zz', now)).toBeNull();
  expect(provider.verifyEvent(body, signLocalEvent(body, now, 'other'), now)).toBeNull();
});
