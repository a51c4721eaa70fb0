/** The connector's three calls to the API, over HTTP with the firewall token; it shares nothing else with the API. */
import type { z } from 'zod';
import { IngestAnswer } from '../../contract/events.ts';
import { ConnectorConfig, type ConnectorStatusBody } from '../../contract/firewalls.ts';

/** The body of `POST /api/connector/status`. */
export type StatusReport = z.infer<typeof ConnectorStatusBody>;

/** A long poll's outcome: a version the connector does not have yet, or nothing new. */
export type ConfigPoll = { kind: 'new'; config: ConnectorConfig } | { kind: 'same' };

/** A non-2xx answer: its status and the API's message, so the caller can tell a bad token from a server error. */
export class ApiCallError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

/** What `POST /api/connector/events` answered: the status and the lines it refused, if any. */
export type EventsAnswer = { status: number; accepted: number; refused: number; errors: string[] };

/** The API as the connector sees it. */
export class ConnectorApi {
  readonly #base: string;
  readonly #token: string;

  constructor(base: string, token: string) {
    this.#base = base.replace(/\/+$/, '');
    this.#token = token;
  }

  /** `GET /api/connector/config?wait=N` with `If-None-Match`: held by the API until a newer version exists. */
  async config(hash: string | null, waitSeconds: number, signal?: AbortSignal): Promise<ConfigPoll> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.#token}` };
    if (hash) headers['if-none-match'] = `"${hash}"`;
    const query = hash && waitSeconds > 0 ? `?wait=${waitSeconds}` : '';
    // The API answers within the wait; past it plus a margin the connection is taken as lost.
    const timeout = AbortSignal.timeout((waitSeconds + 15) * 1000);
    const response = await fetch(`${this.#base}/api/connector/config${query}`, {
      headers,
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
    if (response.status === 304) return { kind: 'same' };
    if (!response.ok) throw await callError(response);
    return { kind: 'new', config: ConnectorConfig.parse(await response.json()) };
  }

  /** `POST /api/connector/status`: a version applied, or failed with nginx -t's message. */
  async status(body: StatusReport, signal?: AbortSignal): Promise<void> {
    const response = await fetch(`${this.#base}/api/connector/status`, {
      method: 'POST',
      headers: { authorization: `Bearer ${this.#token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: signal ? AbortSignal.any([signal, AbortSignal.timeout(30_000)]) : AbortSignal.timeout(30_000),
    });
    if (!response.ok) throw await callError(response);
  }

  /** `POST /api/connector/events`: one NDJSON batch of audit records under an Idempotency-Key. */
  async events(body: string, key: string): Promise<EventsAnswer> {
    const response = await fetch(`${this.#base}/api/connector/events`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${this.#token}`,
        'content-type': 'application/x-ndjson',
        'idempotency-key': key,
      },
      body,
      signal: AbortSignal.timeout(60_000),
    });
    if (!response.ok && response.status !== 429) throw await callError(response);
    const answer = IngestAnswer.safeParse(await response.json().catch(() => null));
    return {
      status: response.status,
      accepted: answer.data?.accepted ?? 0,
      refused: answer.data?.refused ?? 0,
      errors: (answer.data?.errors ?? []).map((error) => JSON.stringify(error)),
    };
  }
}

/** The API's error message (`{ error: { message } }` or `{ message }`), else the status line. */
async function callError(response: Response): Promise<ApiCallError> {
  const text = await response.text().catch(() => '');
  let message = `${response.status} ${response.statusText}`;
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    const found = typeof body.error === 'object' ? body.error?.message : (body.message ?? body.error);
    if (typeof found === 'string') message = `${response.status}: ${found}`;
  } catch {
    // not JSON: keep the status line
  }
  return new ApiCallError(response.status, message);
}
