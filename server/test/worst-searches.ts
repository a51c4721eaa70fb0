/**
 * The worst case of the query budget, shared by the load test (server/routes/search-load.test.ts) and its
 * benchmark (bench/search-load.ts): events to search, and the costliest query the budget allows.
 */
import { sql } from 'drizzle-orm';
import { eventActions, queryLimits, severities } from '../../contract/constants/events.ts';
import type { Db } from '../db/database.ts';
import { completeStoredEvents } from './stored-events.ts';

/** Every OR alternative a quoted substring search or a CIDR test, none matching the events below. */
export function worstQuery(): string {
  const words = Array.from({ length: queryLimits.textTerms }, (_, i) => `"no such text ${i}"`);
  const ranges = Array.from(
    { length: Math.min(queryLimits.ipTerms, queryLimits.orWidth - words.length) },
    (_, i) => `ip:192.0.${i}.0/24`,
  );
  return [...words, ...ranges].join(' OR ');
}

/** A PostgreSQL array literal of plain words, bound as one parameter. */
const textArray = (words: readonly string[]) => `{${words.join(',')}}`;

/** `count` varied events of one source over the last day, inserted in one statement. */
export async function insertEvents(db: Db, spaceId: string, sourceId: string, count: number): Promise<void> {
  await db.execute(sql`insert into events (space_id, source_id, time, received_at, action, severity, ip, host, path, message, user_agent, rule_ids, tags)
    select ${spaceId}::uuid, ${sourceId}::uuid, now() - make_interval(secs => g % 86000), now(),
      (${textArray(eventActions)}::text[])[1 + g % ${eventActions.length}], (${textArray(severities)}::text[])[1 + g % ${severities.length}],
      '10.' || (g % 250) || '.' || (g % 200) || '.' || (g % 199), 'shop' || (g % 7) || '.example.com',
      '/p/' || g, 'Matched request number ' || g, 'agent/' || (g % 1000), array[942100 + g % 50], array['attack-' || (g % 9)]
    from generate_series(1, ${count}) as g`);
  await completeStoredEvents(db, spaceId);
}
