/**
 * One webhook request: the URL checked again (DNS may have changed since the rule was saved), then a POST to the
 * very addresses the check approved (a second lookup could answer another one), no redirect followed, bounded in time.
 */
import { request as httpRequest, type IncomingMessage, STATUS_CODES } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { checkWebhookUrl, type ResolvedAddress, type UrlGuardConfig } from './url-guard.ts';

/** How one request ended, in the words the delivery log and the test button show. */
export type PostOutcome = {
  ok: boolean;
  statusCode: number | null;
  /** "Delivered: 200 OK", "The receiver answered 500", "Could not connect: ECONNREFUSED", or the guard's refusal. */
  message: string;
  /** Set when no 2xx came back: what went wrong, for the attempt record. */
  error: string | null;
  durationMs: number;
};

/** How long a receiver has to answer. */
export const WEBHOOK_TIMEOUT_MS = 10_000;

/** A resolver that answers only the approved addresses, whatever the name. */
function pinned(addresses: ResolvedAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    const first = addresses[0];
    if (options.all) callback(null, addresses);
    else if (first) callback(null, first.address, first.family);
  };
}

/** Rejects when the signal aborts (at once if it already has). */
function aborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, fail) => {
    if (signal.aborted) fail(signal.reason);
    else signal.addEventListener('abort', () => fail(signal.reason), { once: true });
  });
}

/** The error's short name: `ECONNREFUSED`, `ENOTFOUND`, or its message. */
function errorName(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && code !== 'ABORT_ERR') return code;
  return error instanceof Error ? error.message : String(error);
}

/** Sends the body; the outcome, never a throw. `signal` (a job's) cuts the request short as well. */
export async function postWebhook(input: {
  url: string;
  body: string;
  headers: Record<string, string>;
  config: UrlGuardConfig;
  signal?: AbortSignal;
  timeoutMs?: number;
}): Promise<PostOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const timeoutMs = input.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = input.signal ? AbortSignal.any([timeout, input.signal]) : timeout;
  try {
    // The time limit covers the name's resolution too.
    const target = await Promise.race([checkWebhookUrl(input.url, input.config), aborted(signal)]);
    if (target.problem !== null)
      return { ok: false, statusCode: null, message: target.problem, error: target.problem, durationMs: elapsed() };
    const url = new URL(input.url);
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const response = await new Promise<IncomingMessage>((answered, failed) => {
      const req = send(url, {
        method: 'POST',
        headers: { ...input.headers, 'Content-Length': String(Buffer.byteLength(input.body)) },
        lookup: pinned(target.addresses),
        // A fresh connection each time: a pooled socket would skip the address check.
        agent: false,
        signal,
      });
      req.on('response', answered);
      req.on('error', failed);
      req.end(input.body);
    });
    // The answer's body is not read: drop it so the socket is freed (an abort after this point is of no concern).
    response.on('error', () => undefined);
    response.resume();
    const statusCode = response.statusCode ?? 0;
    const reason = response.statusMessage || STATUS_CODES[statusCode] || '';
    if (statusCode >= 200 && statusCode < 300)
      return {
        ok: true,
        statusCode,
        message: `Delivered: ${statusCode} ${reason}`.trim(),
        error: null,
        durationMs: elapsed(),
      };
    const redirect = statusCode >= 300 && statusCode < 400 ? ' (a redirect, which is not followed)' : '';
    const message = `The receiver answered ${statusCode}${redirect}`;
    return { ok: false, statusCode, message, error: message, durationMs: elapsed() };
  } catch (error) {
    const message = timeout.aborted
      ? `No answer within ${timeoutMs / 1000} s`
      : input.signal?.aborted
        ? 'Stopped before the receiver answered'
        : `Could not connect: ${errorName(error)}`;
    return { ok: false, statusCode: null, message, error: message, durationMs: elapsed() };
  }
}
