/** How a batch of audit records goes to the API, and what an answer means for the tailer's offset. */
import { ApiCallError, type ConnectorApi } from './api-client.ts';
import type { SendBatch } from './audit-tailer.ts';
import { messageOf } from './message-of.ts';

/** Statuses after which the same batch can never be taken: skip it (and say so) rather than stall the log forever. */
const hopeless = new Set([400, 413, 415, 422]);

/**
 * The tailer's `send`: `POST /api/connector/events` with the batch's Idempotency-Key. Taken (2xx, lines refused one
 * by one included) or refused past the monthly quota (429: those events are dropped by design) moves the offset on;
 * a network error, 5xx or a token the API does not know keeps it, so the same range is sent again later.
 */
export function eventShipper(api: ConnectorApi, log: (line: string) => void): SendBatch {
  return async (body, key, lines) => {
    try {
      const answer = await api.events(body, key);
      if (answer.status === 429) log(`events: monthly quota used up; ${answer.refused} of ${lines} records refused`);
      if (answer.errors.length > 0) {
        log(`events: ${answer.errors.length} of ${lines} records refused, first: ${answer.errors[0]}`);
      }
      return 'done';
    } catch (error) {
      if (error instanceof ApiCallError && hopeless.has(error.status)) {
        log(`events: a batch of ${lines} records was refused (${error.message}); skipped`);
        return 'done';
      }
      log(`events: ${messageOf(error)}; will send again`);
      return 'retry';
    }
  };
}
