/**
 * SQL expressions the events table's generated column and indexes are built on (migration 0008 holds them
 * verbatim, which a test checks): a query must write them exactly so for the planner to use the index.
 */
import { ipv4Pattern, ipv6Pattern } from '../../../contract/query/ip.ts';

/** The `ip` text as inet where it is an address by the query language's own patterns, else null (`ip_net`). */
export const ipNetExpression = `CASE WHEN "ip" ~ '${ipv4Pattern}' OR "ip" ~ '${ipv6Pattern}' THEN "ip"::inet END`;

/**
 * The four columns free text searches, joined by newlines: the trigram index is on it, so a word's `ilike` on it
 * picks the candidate rows, which the exact test of each column then checks.
 */
export const freeTextExpression = `(coalesce("message", '') || chr(10) || coalesce("path", '') || chr(10) || coalesce("host", '') || chr(10) || coalesce("user_agent", ''))`;
