/** Log sources of a space (docs/product.md §7): their ingest figures, create with a token, edit, rotate, delete, parser test. */
import { and, asc, count, desc, eq, gt, gte, inArray, lte, max } from 'drizzle-orm';
import type { z } from 'zod';
import type {
  CreatedSource,
  CreateSourceBody,
  Source,
  SourceDetail,
  TestSourceAnswer,
  UpdateSourceBody,
} from '../../../contract/sources.ts';
import type { SpaceCaller } from '../../caller.ts';
import type { Executor } from '../../db/database.ts';
import { events } from '../../db/schema/events.ts';
import { ingestErrors } from '../../db/schema/ingest-batches.ts';
import { type SourceRow, sources } from '../../db/schema/sources.ts';
import { notFound } from '../../errors.ts';
import { recordActivity } from '../activity/record.ts';
import { parseBatch } from '../ingest/parse-batch.ts';
import { hashToken, randomToken } from '../shared/tokens.ts';

/** Every ingest token starts with this, so a leaked one is recognisable. */
const tokenPrefix = 'sgi_';

/** A fresh ingest token with its stored hash and its visible prefix. */
function newToken() {
  const token = randomToken(tokenPrefix);
  return { token, tokenHash: hashToken(token), tokenPrefix: token.slice(0, tokenPrefix.length + 6) };
}

type Figures = { eventsLastHour: number; lastEventAt: Date | null; errorsLast24h: number };

const noFigures: Figures = { eventsLastHour: 0, lastEventAt: null, errorsLast24h: 0 };

/**
 * Ingest figures of some sources of a space: its events of the last hour, counted by when they happened as the
 * event log's "Last 1h" counts them (a backlog sent now of older events does not inflate it), the last event
 * received, errors in 24 h. The last event is read off the index on (space_id, source_id, received_at) of each
 * monthly partition; the hour's count off the index on the event time.
 */
async function figuresOf(db: Executor, spaceId: string, ids: string[], now: Date): Promise<Map<string, Figures>> {
  const out = new Map<string, Figures>(ids.map((id) => [id, { ...noFigures }]));
  if (ids.length === 0) return out;
  const hourAgo = new Date(now.getTime() - 3_600_000);
  const dayAgo = new Date(now.getTime() - 86_400_000);
  const ofSource = (id: string) => and(eq(events.spaceId, spaceId), eq(events.sourceId, id));
  const [recent, errs] = await Promise.all([
    Promise.all(
      ids.map(async (id) => {
        const [hour] = await db
          .select({ n: count() })
          .from(events)
          .where(and(ofSource(id), gte(events.time, hourAgo), lte(events.time, now)));
        const [last] = await db
          .select({ at: max(events.receivedAt) })
          .from(events)
          .where(ofSource(id));
        return { id, n: hour?.n ?? 0, at: last?.at ?? null };
      }),
    ),
    db
      .select({ id: ingestErrors.sourceId, n: count() })
      .from(ingestErrors)
      .where(and(inArray(ingestErrors.sourceId, ids), gt(ingestErrors.createdAt, dayAgo)))
      .groupBy(ingestErrors.sourceId),
  ]);
  for (const r of recent) {
    const figures = out.get(r.id) as Figures;
    figures.eventsLastHour = r.n;
    figures.lastEventAt = r.at ? new Date(r.at) : null;
  }
  for (const r of errs) (out.get(r.id) as Figures).errorsLast24h = r.n;
  return out;
}

/** A source as the API shows it, with its ingest figures. */
function sourceView(row: SourceRow, figures: Figures = noFigures): Source {
  return {
    id: row.id,
    spaceId: row.spaceId,
    name: row.name,
    kind: row.kind,
    tokenPrefix: row.tokenPrefix,
    retentionDays: row.retentionDays,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    eventsLastHour: figures.eventsLastHour,
    lastEventAt: figures.lastEventAt?.toISOString() ?? null,
    errorsLast24h: figures.errorsLast24h,
  };
}

/** A source with its current figures. */
async function withFigures(sc: SpaceCaller, row: SourceRow): Promise<Source> {
  const figures = await figuresOf(sc.deps.db, sc.space.id, [row.id], sc.deps.now());
  return sourceView(row, figures.get(row.id));
}

/** A source of the space; 404 for one of another space. */
async function sourceOf(db: Executor, spaceId: string, id: string): Promise<SourceRow> {
  const [row] = await db
    .select()
    .from(sources)
    .where(and(eq(sources.id, id), eq(sources.spaceId, spaceId)));
  if (!row) throw notFound('source');
  return row;
}

/** The space's sources by name, with their figures. */
export async function listSources(sc: SpaceCaller): Promise<{ items: Source[] }> {
  const { db, now } = sc.deps;
  const rows = await db
    .select()
    .from(sources)
    .where(eq(sources.spaceId, sc.space.id))
    .orderBy(asc(sources.name), asc(sources.id));
  const figures = await figuresOf(
    db,
    sc.space.id,
    rows.map((r) => r.id),
    now(),
  );
  return { items: rows.map((r) => sourceView(r, figures.get(r.id))) };
}

/** Creates a source; the answer carries its ingest token, shown this once. */
export async function createSource(sc: SpaceCaller, input: z.infer<typeof CreateSourceBody>): Promise<CreatedSource> {
  const { space } = sc;
  const at = sc.deps.now();
  const { token, tokenHash, tokenPrefix: prefix } = newToken();
  const created = await sc.deps.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(sources)
      .values({
        spaceId: space.id,
        name: input.name,
        kind: input.kind,
        retentionDays: input.retentionDays ?? null,
        tokenHash,
        tokenPrefix: prefix,
        createdAt: at,
        updatedAt: at,
      })
      .returning();
    if (!row) throw new Error('insert returned nothing');
    await recordActivity(tx, sc.actor, {
      spaceId: space.id,
      action: 'source.create',
      objectType: 'source',
      objectId: row.id,
      change: { name: row.name, kind: row.kind, retentionDays: row.retentionDays },
    });
    return row;
  });
  return { ...sourceView(created), token };
}

/** One source with its figures and its 20 most recent refused lines. */
export async function sourceDetail(sc: SpaceCaller, id: string): Promise<SourceDetail> {
  const { db, now } = sc.deps;
  const row = await sourceOf(db, sc.space.id, id);
  const [figures, recent] = await Promise.all([
    figuresOf(db, sc.space.id, [row.id], now()),
    db
      .select()
      .from(ingestErrors)
      .where(eq(ingestErrors.sourceId, row.id))
      .orderBy(desc(ingestErrors.createdAt), asc(ingestErrors.line))
      .limit(20),
  ]);
  const recentErrors = recent.map((e) => ({ line: e.line, message: e.message, at: e.createdAt.toISOString() }));
  return { ...sourceView(row, figures.get(row.id)), recentErrors };
}

/** Renames a source, changes its kind or retention (null: the space's). */
export async function updateSource(
  sc: SpaceCaller,
  id: string,
  input: z.infer<typeof UpdateSourceBody>,
): Promise<Source> {
  const { space } = sc;
  const updated = await sc.deps.db.transaction(async (tx) => {
    const before = await sourceOf(tx, space.id, id);
    const [row] = await tx
      .update(sources)
      .set({ ...input, updatedAt: sc.deps.now() })
      .where(eq(sources.id, before.id))
      .returning();
    if (!row) throw notFound('source');
    const change: Record<string, { from: unknown; to: unknown }> = {};
    for (const key of ['name', 'kind', 'retentionDays'] as const) {
      if (input[key] !== undefined && before[key] !== row[key]) change[key] = { from: before[key], to: row[key] };
    }
    await recordActivity(tx, sc.actor, {
      spaceId: space.id,
      action: 'source.update',
      objectType: 'source',
      objectId: row.id,
      change,
    });
    return row;
  });
  return withFigures(sc, updated);
}

/** Deletes a source and its events. */
export async function deleteSource(sc: SpaceCaller, id: string): Promise<void> {
  const { space } = sc;
  await sc.deps.db.transaction(async (tx) => {
    const [gone] = await tx
      .delete(sources)
      .where(and(eq(sources.id, id), eq(sources.spaceId, space.id)))
      .returning();
    if (!gone) throw notFound('source');
    await recordActivity(tx, sc.actor, {
      spaceId: space.id,
      action: 'source.delete',
      objectType: 'source',
      objectId: gone.id,
      change: { name: gone.name, kind: gone.kind },
    });
  });
}

/** Gives a source a new ingest token: the old one stops working at once; the new one is shown this once. */
export async function rotateSourceToken(sc: SpaceCaller, id: string): Promise<CreatedSource> {
  const { space } = sc;
  const { token, tokenHash, tokenPrefix: prefix } = newToken();
  const updated = await sc.deps.db.transaction(async (tx) => {
    const [row] = await tx
      .update(sources)
      .set({ tokenHash, tokenPrefix: prefix, updatedAt: sc.deps.now() })
      .where(and(eq(sources.id, id), eq(sources.spaceId, space.id)))
      .returning();
    if (!row) throw notFound('source');
    await recordActivity(tx, sc.actor, {
      spaceId: space.id,
      action: 'source.token_rotate',
      objectType: 'source',
      objectId: row.id,
      change: { tokenPrefix: prefix },
    });
    return row;
  });
  return { ...(await withFigures(sc, updated)), token };
}

/** Parses a sample line by line with the source's kind, as ingest would; nothing is stored. */
export async function testSource(sc: SpaceCaller, id: string, sample: string): Promise<TestSourceAnswer> {
  const row = await sourceOf(sc.deps.db, sc.space.id, id);
  const answer: TestSourceAnswer = { events: [], errors: [] };
  let results: ReturnType<typeof parseBatch>;
  try {
    results = parseBatch(row.kind, sample, sc.deps.now());
  } catch (error) {
    answer.errors.push({ line: 1, message: (error as Error).message });
    return answer;
  }
  for (const r of results) {
    if (r.ok) answer.events.push({ line: r.line, ...r.event });
    else answer.errors.push({ line: r.line, message: r.message });
  }
  return answer;
}
