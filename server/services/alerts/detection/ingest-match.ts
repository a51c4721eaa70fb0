/**
 * Detection on ingest: a batch's events are tried against the space's enabled match and threshold rules in memory
 * (the same matcher as the SQL compiler, contract/query/match.ts) before its transaction; once its rows are in, the
 * transaction enqueues one `alerts.match` job with the groups the match rules found and an `alerts.evaluate` job per
 * threshold rule an event matched. The alerts themselves are written by those jobs after the commit, so a batch
 * never waits on an alert, a lock of one, or a notification, and a crash after the commit loses no firing.
 */
import { and, eq, inArray } from 'drizzle-orm';
import type { NormalisedEvent } from '../../../../contract/events.ts';
import type { QueryNode } from '../../../../contract/query/ast.ts';
import { matchesEvent } from '../../../../contract/query/match.ts';
import { parseQuery } from '../../../../contract/query/parse.ts';
import type { Executor } from '../../../db/database.ts';
import { type AlertRuleRow, alertRules } from '../../../db/schema/alerts.ts';
import { enqueue, enqueueMany } from '../../jobs/enqueue.ts';
import { evaluateWorker } from '../workers/evaluate-worker.ts';
import { type MatchArgs, type MatchedGroup, matchWorker } from '../workers/match-worker.ts';
import { groupsOfEvent } from './groups.ts';

/** Parsed queries by text: rules rarely change, batches come often. */
const parsedQueries = new Map<string, QueryNode | null>();

function astOf(query: string): QueryNode | null {
  let ast = parsedQueries.get(query);
  if (ast === undefined) {
    const parsed = parseQuery(query);
    ast = parsed.ok ? parsed.ast : null;
    if (parsedQueries.size > 10_000) parsedQueries.clear();
    parsedQueries.set(query, ast);
  }
  return ast;
}

/** A rule ready to try on events. */
type LiveRule = { rule: Pick<AlertRuleRow, 'id' | 'kind' | 'groupBy'>; ast: QueryNode };

/** The space's enabled match and threshold rules with their parsed queries (a rule whose query no longer parses is skipped). */
export async function rulesForIngest(db: Executor, spaceId: string): Promise<LiveRule[]> {
  const rows = await db
    .select({ id: alertRules.id, kind: alertRules.kind, query: alertRules.query, groupBy: alertRules.groupBy })
    .from(alertRules)
    .where(
      and(
        eq(alertRules.spaceId, spaceId),
        eq(alertRules.enabled, true),
        inArray(alertRules.kind, ['match', 'threshold']),
      ),
    );
  const live: LiveRule[] = [];
  for (const row of rows) {
    const ast = astOf(row.query);
    if (ast) live.push({ rule: row, ast });
  }
  return live;
}

/** What a batch matched: per match rule its groups (events by index in the batch), the threshold rules touched. */
export type BatchMatches = {
  match: { ruleId: string; groups: Map<string, { values: Record<string, string>; indexes: number[] }> }[];
  threshold: string[];
};

/** Tries every event against every rule, in memory. */
export function matchBatch(rules: LiveRule[], events: NormalisedEvent[], sourceId: string): BatchMatches {
  const out: BatchMatches = { match: [], threshold: [] };
  for (const { rule, ast } of rules) {
    if (rule.kind === 'threshold') {
      if (events.some((event) => matchesEvent(ast, event))) out.threshold.push(rule.id);
      continue;
    }
    const groups = new Map<string, { values: Record<string, string>; indexes: number[] }>();
    events.forEach((event, index) => {
      if (!matchesEvent(ast, event)) return;
      for (const group of groupsOfEvent(rule.groupBy, event, sourceId)) {
        const found = groups.get(group.key) ?? { values: group.values, indexes: [] };
        found.indexes.push(index);
        groups.set(group.key, found);
      }
    });
    if (groups.size > 0) out.match.push({ ruleId: rule.id, groups });
  }
  return out;
}

/**
 * Events of one group a batch's job carries to keep as links (the newest); the count is exact whatever this is.
 * Small, because the job's arguments are written in the batch's transaction: an alert gathers its 1,000 links over
 * many batches, and the event log link shows every event.
 */
const refsPerGroup = 20;

/** Ten-second slots: at most one ingest-triggered evaluation of a threshold rule per slot. */
const slotMs = 10_000;

/**
 * In the batch's transaction, after its rows are in: enqueues the firings of the events that were stored (`stored`
 * says which indexes: past the quota or repeated records are not) and the evaluations of the touched threshold rules.
 */
export async function enqueueDetection(
  tx: Executor,
  input: {
    spaceId: string;
    sourceId: string;
    events: NormalisedEvent[];
    ids: string[];
    stored: (index: number) => boolean;
    matches: BatchMatches;
    now: Date;
  },
): Promise<void> {
  const { events, ids, matches } = input;
  const rules: MatchArgs['rules'] = [];
  for (const { ruleId, groups } of matches.match) {
    const found: MatchedGroup[] = [];
    for (const [key, group] of groups) {
      const indexes = group.indexes.filter(input.stored);
      if (indexes.length === 0) continue;
      const dated = indexes.map((i) => ({ i, t: Date.parse(events[i]?.time ?? '') })).sort((a, b) => b.t - a.t);
      const firewalls = [...new Set(indexes.map((i) => events[i]?.firewallId ?? null))];
      found.push({
        key,
        values: group.values,
        count: indexes.length,
        firstSeen: new Date(dated[dated.length - 1]?.t ?? 0).toISOString(),
        lastSeen: new Date(dated[0]?.t ?? 0).toISOString(),
        firewalls,
        events: dated.slice(0, refsPerGroup).map(({ i }) => [events[i]?.time ?? '', ids[i] ?? '']),
      });
    }
    if (found.length > 0) rules.push({ ruleId, groups: found });
  }
  if (rules.length > 0) await enqueue(tx, matchWorker, { rules }, { now: input.now, spaceId: input.spaceId });
  if (matches.threshold.length === 0) return;
  const slot = Math.floor(input.now.getTime() / slotMs) * slotMs;
  // Every touched rule's evaluation in one statement (one `enqueue` per rule was two round trips each inside the
  // batch's transaction: 32 ms of a 1,000-event batch with 20 rules, BENCHMARKS.md); a rule whose evaluation of this
  // slot is enqueued already keeps it.
  await enqueueMany(
    tx,
    evaluateWorker,
    // In one order in every batch, so two batches of a slot never wait on each other's keys crosswise.
    [...matches.threshold].sort().map((ruleId) => ({
      args: { ruleId, at: null },
      options: {
        now: input.now,
        spaceId: input.spaceId,
        // Due at the end of the slot, so the batches of the next seconds are counted by the same evaluation.
        scheduledAt: new Date(slot + slotMs),
        uniqueKey: `alerts.evaluate:${ruleId}:ingest:${new Date(slot).toISOString()}`,
      },
    })),
  );
}
