/**
 * One search of the events and its store key, shared by the event log's stores and the overview's, so neither area
 * loads the other's code. A search is keyed by its query and absolute window: a new search is a new key, and an answer
 * that comes after the search changed is dropped.
 */
import { computed, type ReadableAtom } from 'nanostores';
import type { KeyPart } from './fetcher.ts';
import { $spaceId } from './route.ts';

/** One search of the events: a query in the event query language and the absolute window it covers (RFC 3339). */
export interface EventSearch {
  readonly q: string;
  readonly from: string;
  readonly to: string;
}

/** The space and a search's query, from and to as key parts (none known while the search is undefined). */
export function searchKey($search: ReadableAtom<EventSearch | undefined>): KeyPart[] {
  return [
    $spaceId,
    computed($search, (search) => search?.q),
    computed($search, (search) => search?.from),
    computed($search, (search) => search?.to),
  ];
}
