/**
 * The webhook signature (docs/webhooks.md): `X-Spaceguard-Signature: sha256=<hex HMAC-SHA256 of "<timestamp>.<body>">`
 * with the channel's secret, so a receiver knows the body came from Spaceguard, unchanged, and recently.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { systemClock } from '../../clock.ts';

/** The HMAC of one body at one time, as the signature header carries it. */
export function webhookSignature(secret: string, timestamp: number, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** The headers of one webhook request: the same delivery id on every retry, a fresh timestamp and signature. */
export function webhookHeaders(input: {
  secret: string;
  deliveryId: string;
  body: string;
  now: Date;
}): Record<string, string> {
  const timestamp = Math.floor(input.now.getTime() / 1000);
  return {
    'Content-Type': 'application/json',
    'User-Agent': 'Spaceguard-Webhook/1',
    'X-Spaceguard-Delivery': input.deliveryId,
    'X-Spaceguard-Timestamp': String(timestamp),
    'X-Spaceguard-Signature': webhookSignature(input.secret, timestamp, input.body),
  };
}

/**
 * What a receiver does: true when `header` is the body's signature at `timestamp` and the timestamp is within
 * `toleranceSeconds` of now (a replayed old request fails). Compares in constant time.
 */
export function verifyWebhookSignature(
  secret: string,
  timestamp: string | number,
  body: string,
  header: string | null | undefined,
  options: { toleranceSeconds?: number; now?: Date } = {},
): boolean {
  if (!header) return false;
  const seconds = typeof timestamp === 'number' ? timestamp : /^[0-9]{1,12}$/.test(timestamp) ? Number(timestamp) : NaN;
  if (!Number.isSafeInteger(seconds)) return false;
  const now = Math.floor((options.now ?? systemClock()).getTime() / 1000);
  if (Math.abs(now - seconds) > (options.toleranceSeconds ?? 300)) return false;
  const expected = Buffer.from(webhookSignature(secret, seconds, body));
  const given = Buffer.from(header.trim());
  return given.length === expected.length && timingSafeEqual(given, expected);
}
