/** The raw record of the event the drawer shows: the page's rows leave it out, so it is asked for when one opens. */
import { useCallback, useEffect, useRef, useState } from 'react';
import { loadEvent } from '../../stores/event-log.ts';

/** Where the raw record is: on its way, here, or failed (with the error to explain). */
export type RawRecord =
  | { readonly state: 'loading' }
  | { readonly state: 'ready'; readonly raw: unknown }
  | { readonly state: 'error'; readonly error: unknown };

/**
 * Loads event `eventId` of `spaceId` (again when either changes) and answers its raw record's state, with
 * `retry()` to ask again. An answer for an event no longer shown, or after the drawer closed, is dropped.
 */
export function useEventDetail(spaceId: string, eventId: string): { record: RawRecord; retry: () => void } {
  const [record, setRecord] = useState<RawRecord>({ state: 'loading' });
  // Each request takes a ticket; only the newest one's answer is kept.
  const latest = useRef(0);
  const retry = useCallback(() => {
    const ticket = ++latest.current;
    setRecord({ state: 'loading' });
    loadEvent(spaceId, eventId).then(
      (event) => {
        if (latest.current === ticket) setRecord({ state: 'ready', raw: event.raw });
      },
      (error: unknown) => {
        if (latest.current === ticket) setRecord({ state: 'error', error });
      },
    );
  }, [spaceId, eventId]);
  useEffect(() => {
    retry();
    return () => {
      latest.current++;
    };
  }, [retry]);
  return { record, retry };
}
