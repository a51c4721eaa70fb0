import { createHmac } from 'node:crypto';
import { expect, test } from 'vitest';
import { verifyWebhookSignature, webhookHeaders } from './sign.ts';

const secret = 'whsec-0123456789abcdef';
const body = '{"id":"d1","type":"test"}';
const now = new Date('2026-11-23T10:00:00Z');
const timestamp = now.getTime() / 1000;

test('the signature is the hex HMAC-SHA256 of "<timestamp>.<body>" with the secret, and a receiver verifies it', () => {
  const headers = webhookHeaders({ secret, deliveryId: 'd1', body, now });
  const expected = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  expect(headers).toEqual({
    'Content-Type': 'application/json',
    'User-Agent': 'Spaceguard-Webhook/1',
    'X-Spaceguard-Delivery': 'd1',
    'X-Spaceguard-Timestamp': String(timestamp),
    'X-Spaceguard-Signature': `sha256=${expected}`,
  });
  expect(verifyWebhookSignature(secret, String(timestamp), body, `sha256=${expected}`, { now })).toBe(true);
});

test.each([
  { case: 'a tampered body', body: '{"id":"d1","type":"alert.resolved"}', ts: timestamp, key: secret, expected: false },
  { case: 'another secret', body, ts: timestamp, key: 'whsec-another-secret-0000', expected: false },
  { case: 'a timestamp 10 minutes old', body, ts: timestamp - 600, key: secret, expected: false },
  { case: 'a timestamp 4 minutes old', body, ts: timestamp - 240, key: secret, expected: true },
])('$case verifies: $expected', ({ body: sentBody, ts, key, expected }) => {
  // Signed by the sender at `ts`; the receiver checks at `now` with the default 5-minute tolerance.
  const header = `sha256=${createHmac('sha256', key).update(`${ts}.${sentBody}`).digest('hex')}`;
  expect(verifyWebhookSignature(secret, String(ts), body, header, { now })).toBe(expected);
});

test.each([
  { header: undefined, expected: false },
  { header: '', expected: false },
  { header: 'sha256=abc', expected: false },
  { header: 'sha1=0000', expected: false },
])('a signature header of $header verifies: $expected', ({ header, expected }) => {
  expect(verifyWebhookSignature(secret, String(timestamp), body, header, { now })).toBe(expected);
});

test('a timestamp that is not a number of seconds fails', () => {
  const header = webhookHeaders({ secret, deliveryId: 'd1', body, now })['X-Spaceguard-Signature'];
  expect(verifyWebhookSignature(secret, `${timestamp}.0`, body, header, { now })).toBe(false);
  expect(verifyWebhookSignature(secret, '', body, header, { now })).toBe(false);
});
