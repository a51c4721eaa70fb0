/** Reading the audit log: a space's records (filtered, cursor-paginated, exported) and a user's own account events. */
import { and, asc, desc, eq, gte, isNotNull, isNull, lte, max, or, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type {
  Activity,
  ActivityChoices,
  ActivityExportQuery,
  ActivityPage,
  ActivityQuery,
} from '../../../contract/activity.ts';
import type { SpaceCaller, UserCaller } from '../../caller.ts';
import type { Executor } from '../../db/database.ts';
import { type ActivityRow, activity } from '../../db/schema/activity.ts';
import { csvRow } from '../shared/csv.ts';
import { type Download, downloadHeaders, visibleDownload } from '../shared/download.ts';
import { encodeTimeCursor, olderThan } from '../shared/time-cursor.ts';

type Filters = Pick<z.infer<typeof ActivityQuery>, 'actor' | 'action' | 'objectType' | 'from' | 'to'>;

/** An audit record as the API shows it. */
function view(row: ActivityRow): Activity {
  return {
    id: row.id,
    spaceId: row.spaceId,
    actorId: row.actorId,
    actorName: row.actorName,
    action: row.action,
    objectType: row.objectType,
    objectId: row.objectId,
    createdAt: row.createdAt.toISOString(),
    ip: row.ip,
    userAgent: row.userAgent,
    change: row.change ?? null,
  };
}

function conditions(scope: SQL, f: Filters): SQL[] {
  const where: SQL[] = [scope];
  if (f.actor) where.push(eq(activity.actorId, f.actor));
  if (f.action) where.push(eq(activity.action, f.action));
  if (f.objectType) where.push(eq(activity.objectType, f.objectType));
  if (f.from) where.push(gte(activity.createdAt, new Date(f.from)));
  if (f.to) where.push(lte(activity.createdAt, new Date(f.to)));
  return where;
}

/** One page, newest first, keyset-paginated on (createdAt, id). */
async function pageOf(db: Executor, scope: SQL, f: Filters, limit: number, cursor?: string): Promise<ActivityPage> {
  const where = conditions(scope, f);
  if (cursor) {
    const older = olderThan(activity.createdAt, activity.id, cursor);
    if (older) where.push(older);
  }
  const rows = await db
    .select()
    .from(activity)
    .where(and(...where))
    .orderBy(desc(activity.createdAt), desc(activity.id))
    .limit(limit + 1);
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  return {
    items: items.map(view),
    nextCursor: rows.length > limit && last ? encodeTimeCursor(last.createdAt, last.id) : null,
  };
}

/** One page of the caller's space's audit log. */
export function spaceActivity(sc: SpaceCaller, q: z.infer<typeof ActivityQuery>): Promise<ActivityPage> {
  return pageOf(sc.deps.db, eq(activity.spaceId, sc.space.id), q, q.limit, q.cursor);
}

/** The actions, object types and actors present in the caller's space's log (each actor with a name the log recorded). */
export async function activityChoices(sc: SpaceCaller): Promise<ActivityChoices> {
  const { db } = sc.deps;
  const inSpace = eq(activity.spaceId, sc.space.id);
  const actions = await db
    .selectDistinct({ value: activity.action })
    .from(activity)
    .where(inSpace)
    .orderBy(asc(activity.action));
  const objectTypes = await db
    .selectDistinct({ value: activity.objectType })
    .from(activity)
    .where(inSpace)
    .orderBy(asc(activity.objectType));
  const actors = await db
    .select({ id: activity.actorId, name: max(activity.actorName) })
    .from(activity)
    .where(and(inSpace, isNotNull(activity.actorId)))
    .groupBy(activity.actorId);
  return {
    actions: actions.map((row) => row.value),
    objectTypes: objectTypes.map((row) => row.value),
    actors: actors
      .flatMap((row) => (row.id ? [{ id: row.id, name: row.name }] : []))
      .sort((a, b) => (a.name ?? a.id).localeCompare(b.name ?? b.id)),
  };
}

/** One page of the caller's own account events outside spaces (sign-ins, failed sign-ins, profile, tokens). */
export function accountActivity(
  me: UserCaller,
  q: Omit<z.infer<typeof ActivityQuery>, 'actor'>,
): Promise<ActivityPage> {
  const mine =
    and(isNull(activity.spaceId), or(eq(activity.actorId, me.user.id), eq(activity.objectId, me.user.id))) ??
    isNull(activity.spaceId);
  return pageOf(me.deps.db, mine, q, q.limit, q.cursor);
}

const csvColumns = [
  'createdAt',
  'actorId',
  'actorName',
  'action',
  'objectType',
  'objectId',
  'ip',
  'userAgent',
  'change',
] as const;

/**
 * The (filtered) audit log of the caller's space as an NDJSON or CSV download, newest first, read 1000 at a time.
 * A failure reading the first page is an error status, a later one ends the file with a truncated marker.
 */
export function exportActivity(sc: SpaceCaller, q: z.infer<typeof ActivityExportQuery>): Promise<Download> {
  const { db } = sc.deps;
  const spaceId = sc.space.id;
  const csv = q.format === 'csv';
  async function* lines(): AsyncGenerator<string> {
    // The header goes out with the first page, so a failure reading it is an error status (visibleDownload).
    let header = csv ? `${csvColumns.join(',')}\n` : '';
    let cursor: string | undefined;
    do {
      const page = await pageOf(db, eq(activity.spaceId, spaceId), q, 1000, cursor);
      const rows = page.items.map((v) => (csv ? csvRow(csvColumns.map((k) => v[k])) : JSON.stringify(v)));
      if (rows.length) {
        yield `${header}${rows.join('\n')}\n`;
        header = '';
      }
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    if (header) yield header;
  }
  return visibleDownload(q.format, downloadHeaders(q.format, `activity-${spaceId}`), lines(), sc.deps.log);
}
