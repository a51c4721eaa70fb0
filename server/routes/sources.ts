import { and, asc, count, desc, eq, gt, inArray, max } from 'drizzle-orm';
import { Ok, SpaceParams } from '../../contract/common.ts';
import {
  CreatedSource,
  CreateSourceBody,
  Source,
  SourceDetail,
  SourceList,
  SourceParams,
  TestSourceAnswer,
  TestSourceBody,
  UpdateSourceBody,
} from '../../contract/sources.ts';
import type { Executor } from '../db/database.ts';
import { events } from '../db/schema/events.ts';
import { ingestErrors } from '../db/schema/ingest-batches.ts';
import { type SourceRow, sources } from '../db/schema/sources.ts';
import { notFound } from '../errors.ts';
import { body, createRouter, json, route } from '../router.ts';
import { recordActivity } from '../services/activity/record.ts';
import { parseBatch } from '../services/ingest/parse-batch.ts';
import { hashToken, randomToken } from '../services/shared/tokens.ts';

const tokenPrefix = 'sgi_';

/** A fresh ingest token with its stored hash and its visible prefix. */
function newToken() {
  const token = randomToken(tokenPrefix);
  return { token, tokenHash: hashToken(token), tokenPrefix: token.slice(0, tokenPrefix.length + 6) };
}

type Figures = { eventsLastHour: number; lastEventAt: Date | null; errorsLast24h: number };

/** Ingest figures of some sources: events received in the last hour, the last one, errors in 24 h. */
async function figuresOf(db: Executor, ids: string[], now: Date): Promise<Map<string, Figures>> {
  const out = new Map<string, Figures>(
    ids.map((id) => [id, { eventsLastHour: 0, lastEventAt: null, errorsLast24h: 0 }]),
  );
  if (ids.length === 0) return out;
  const hourAgo = new Date(now.getTime() - 3_600_000);
  const dayAgo = new Date(now.getTime() - 86_400_000);
  const [recent, last, errs] = await Promise.all([
    db
      .select({ id: events.sourceId, n: count() })
      .from(events)
      .where(and(inArray(events.sourceId, ids), gt(events.receivedAt, hourAgo)))
      .groupBy(events.sourceId),
    db
      .select({ id: events.sourceId, at: max(events.receivedAt) })
      .from(events)
      .where(inArray(events.sourceId, ids))
      .groupBy(events.sourceId),
    db
      .select({ id: ingestErrors.sourceId, n: count() })
      .from(ingestErrors)
      .where(and(inArray(ingestErrors.sourceId, ids), gt(ingestErrors.createdAt, dayAgo)))
      .groupBy(ingestErrors.sourceId),
  ]);
  for (const r of recent) (out.get(r.id) as Figures).eventsLastHour = r.n;
  for (const r of last) (out.get(r.id) as Figures).lastEventAt = r.at ? new Date(r.at) : null;
  for (const r of errs) (out.get(r.id) as Figures).errorsLast24h = r.n;
  return out;
}

function sourceView(row: SourceRow, figures: Figures = { eventsLastHour: 0, lastEventAt: null, errorsLast24h: 0 }) {
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

async function sourceOf(db: Executor, spaceId: string, id: string): Promise<SourceRow> {
  const [row] = await db
    .select()
    .from(sources)
    .where(and(eq(sources.id, id), eq(sources.spaceId, spaceId)));
  if (!row) throw notFound('source');
  return row;
}

/** Log sources of a space (PRODUCT.md §7): viewers read, admins create, edit, rotate and delete. */
export const sourceRoutes = createRouter()
  .openapi(
    route('viewer', {
      method: 'get',
      path: '/{spaceId}/sources',
      summary: 'Log sources with their ingest rate (events in the last hour), last event and errors in 24 h',
      request: { params: SpaceParams },
      responses: { 200: json(SourceList, 'Sources by name') },
    }),
    async (c) => {
      const { db, now } = c.var.deps;
      const rows = await db
        .select()
        .from(sources)
        .where(eq(sources.spaceId, c.var.space.id))
        .orderBy(asc(sources.name), asc(sources.id));
      const figures = await figuresOf(
        db,
        rows.map((r) => r.id),
        now(),
      );
      return c.json({ items: rows.map((r) => sourceView(r, figures.get(r.id))) }, 200);
    },
  )
  .openapi(
    route('admin', {
      method: 'post',
      path: '/{spaceId}/sources',
      summary: 'Create a source; the answer carries its ingest token, shown this once',
      request: { params: SpaceParams, body: body(CreateSourceBody) },
      responses: { 201: json(CreatedSource, 'The source and its token') },
    }),
    async (c) => {
      const input = c.req.valid('json');
      const space = c.var.space;
      const at = c.var.deps.now();
      const { token, tokenHash, tokenPrefix: prefix } = newToken();
      const created = await c.var.deps.db.transaction(async (tx) => {
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
        await recordActivity(tx, c.var.actor, {
          spaceId: space.id,
          action: 'source.create',
          objectType: 'source',
          objectId: row.id,
          change: { name: row.name, kind: row.kind, retentionDays: row.retentionDays },
        });
        return row;
      });
      return c.json({ ...sourceView(created), token }, 201);
    },
  )
  .openapi(
    route('viewer', {
      method: 'get',
      path: '/{spaceId}/sources/{id}',
      summary: 'One source with its ingest figures and its most recent refused lines',
      request: { params: SourceParams },
      responses: { 200: json(SourceDetail, 'The source') },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const { db, now } = c.var.deps;
      const row = await sourceOf(db, c.var.space.id, id);
      const [figures, recent] = await Promise.all([
        figuresOf(db, [row.id], now()),
        db
          .select()
          .from(ingestErrors)
          .where(eq(ingestErrors.sourceId, row.id))
          .orderBy(desc(ingestErrors.createdAt), asc(ingestErrors.line))
          .limit(20),
      ]);
      const recentErrors = recent.map((e) => ({ line: e.line, message: e.message, at: e.createdAt.toISOString() }));
      return c.json({ ...sourceView(row, figures.get(row.id)), recentErrors }, 200);
    },
  )
  .openapi(
    route('admin', {
      method: 'patch',
      path: '/{spaceId}/sources/{id}',
      summary: 'Rename a source, change its kind or retention (null: the space’s)',
      request: { params: SourceParams, body: body(UpdateSourceBody) },
      responses: { 200: json(Source, 'The source') },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const input = c.req.valid('json');
      const space = c.var.space;
      const { db, now } = c.var.deps;
      const updated = await db.transaction(async (tx) => {
        const before = await sourceOf(tx, space.id, id);
        const [row] = await tx
          .update(sources)
          .set({ ...input, updatedAt: now() })
          .where(eq(sources.id, before.id))
          .returning();
        if (!row) throw notFound('source');
        const change: Record<string, { from: unknown; to: unknown }> = {};
        for (const key of ['name', 'kind', 'retentionDays'] as const) {
          if (input[key] !== undefined && before[key] !== row[key]) change[key] = { from: before[key], to: row[key] };
        }
        await recordActivity(tx, c.var.actor, {
          spaceId: space.id,
          action: 'source.update',
          objectType: 'source',
          objectId: row.id,
          change,
        });
        return row;
      });
      const figures = await figuresOf(db, [updated.id], now());
      return c.json(sourceView(updated, figures.get(updated.id)), 200);
    },
  )
  .openapi(
    route('admin', {
      method: 'delete',
      path: '/{spaceId}/sources/{id}',
      summary: 'Delete a source and its events',
      request: { params: SourceParams },
      responses: { 200: json(Ok, 'Deleted') },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const space = c.var.space;
      await c.var.deps.db.transaction(async (tx) => {
        const [gone] = await tx
          .delete(sources)
          .where(and(eq(sources.id, id), eq(sources.spaceId, space.id)))
          .returning();
        if (!gone) throw notFound('source');
        await recordActivity(tx, c.var.actor, {
          spaceId: space.id,
          action: 'source.delete',
          objectType: 'source',
          objectId: gone.id,
          change: { name: gone.name, kind: gone.kind },
        });
      });
      return c.json({ ok: true as const }, 200);
    },
  )
  .openapi(
    route('admin', {
      method: 'post',
      path: '/{spaceId}/sources/{id}/token',
      summary: 'Rotate the ingest token: the old one stops working at once; the new one is shown this once',
      request: { params: SourceParams },
      responses: { 200: json(CreatedSource, 'The source and its new token') },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const space = c.var.space;
      const { db, now } = c.var.deps;
      const { token, tokenHash, tokenPrefix: prefix } = newToken();
      const updated = await db.transaction(async (tx) => {
        const [row] = await tx
          .update(sources)
          .set({ tokenHash, tokenPrefix: prefix, updatedAt: now() })
          .where(and(eq(sources.id, id), eq(sources.spaceId, space.id)))
          .returning();
        if (!row) throw notFound('source');
        await recordActivity(tx, c.var.actor, {
          spaceId: space.id,
          action: 'source.token_rotate',
          objectType: 'source',
          objectId: row.id,
          change: { tokenPrefix: prefix },
        });
        return row;
      });
      const figures = await figuresOf(db, [updated.id], now());
      return c.json({ ...sourceView(updated, figures.get(updated.id)), token }, 200);
    },
  )
  .openapi(
    route('admin', {
      method: 'post',
      path: '/{spaceId}/sources/{id}/test',
      summary: 'Parser test: the sample is parsed line by line with the source’s kind; nothing is stored',
      request: { params: SourceParams, body: body(TestSourceBody) },
      responses: { 200: json(TestSourceAnswer, 'The normalised events and the refused lines') },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const { sample } = c.req.valid('json');
      const { db, now } = c.var.deps;
      const row = await sourceOf(db, c.var.space.id, id);
      const answer: TestSourceAnswer = { events: [], errors: [] };
      let results: ReturnType<typeof parseBatch>;
      try {
        results = parseBatch(row.kind, sample, now());
      } catch (error) {
        answer.errors.push({ line: 1, message: (error as Error).message });
        return c.json(answer, 200);
      }
      for (const r of results) {
        if (r.ok) answer.events.push({ line: r.line, ...r.event });
        else answer.errors.push({ line: r.line, message: r.message });
      }
      return c.json(answer, 200);
    },
  );
