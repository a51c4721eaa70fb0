/**
 * An assessment: every component of one asset (or of all the space's assets) matched against the library, in one
 * transaction. New matches open findings; findings seen before keep their triage (a re-assessment never undoes a
 * decision); a finding no longer found is `fixed`, one found again after that opens again. The space's open counts by
 * severity are stored with the assessment: the trend's point.
 */

import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Ecosystem } from '../../../../contract/constants/vulns.ts';
import type { Assessment } from '../../../../contract/findings.ts';
import type { Db } from '../../../db/database.ts';
import {
  type AssessmentRow,
  assessments,
  assetComponents,
  assets,
  findings,
  vulnRefs,
} from '../../../db/schema/vulns.ts';
import type { Actor } from '../../activity/record.ts';
import { chunksOf } from '../../shared/chunks.ts';
import { recordDecision, systemActor } from '../../triage/record.ts';
import { baseEcosystem, debianRelease } from '../ecosystems/names.ts';
import { openCounts } from '../findings/list.ts';
import { zeroCounts } from '../findings/view.ts';
import { matchInventory } from '../match/load.ts';
import type { MatchComponent } from '../match/match.ts';

export type AssessInput = {
  spaceId: string;
  assetId: string | null;
  trigger: 'manual' | 'import';
  actor: Pick<Actor, 'id' | 'name'>;
  now: Date;
};

/** Runs one assessment and answers its summary. */
export async function assess(db: Db, input: AssessInput): Promise<AssessmentRow> {
  const started = performance.now();
  return db.transaction(async (tx) => {
    // One assessment of a space at a time: a second waits, then sees the first's findings.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`vulns.assess:${input.spaceId}`}, 0))`);
    const assetRows = await tx
      .select({ id: assets.id })
      .from(assets)
      .where(and(eq(assets.spaceId, input.spaceId), input.assetId ? eq(assets.id, input.assetId) : undefined));
    const assetIds = assetRows.map((a) => a.id);
    const components =
      assetIds.length === 0
        ? []
        : await tx.select().from(assetComponents).where(inArray(assetComponents.assetId, assetIds));

    // Each distinct component is matched once, whatever the number of assets that have it.
    const distinct = new Map<string, MatchComponent>();
    for (const c of components) {
      const ecosystem = baseEcosystem(c.ecosystem);
      if (!ecosystem || distinct.has(c.key)) continue;
      distinct.set(c.key, {
        key: c.key,
        ecosystem: ecosystem satisfies Ecosystem,
        packageKey: c.packageKey,
        version: c.version,
        release: ecosystem === 'Debian' ? debianRelease(c.purl) : null,
      });
    }
    const matches = await matchInventory(tx, input.spaceId, [...distinct.values()]);
    const byComponent = new Map<string, { refId: string; fixedIn: string | null }[]>();
    for (const m of matches) {
      const list = byComponent.get(m.componentKey) ?? [];
      list.push({ refId: m.refId, fixedIn: m.fixedIn });
      byComponent.set(m.componentKey, list);
    }
    const refIds = [...new Set(matches.map((m) => m.refId))];
    const refs = new Map<string, { aliases: string[]; summary: string; severity: string; score: number | null }>();
    for (const ids of chunksOf(refIds, 1_000)) {
      const rows = await tx
        .select({
          id: vulnRefs.id,
          aliases: vulnRefs.aliases,
          summary: vulnRefs.summary,
          severity: vulnRefs.severity,
          score: vulnRefs.score,
        })
        .from(vulnRefs)
        .where(and(eq(vulnRefs.spaceId, input.spaceId), inArray(vulnRefs.id, ids)));
      for (const r of rows) refs.set(r.id, r);
    }

    const existing =
      assetIds.length === 0
        ? []
        : await tx
            .select({
              id: findings.id,
              assetId: findings.assetId,
              componentKey: findings.componentKey,
              vulnId: findings.vulnId,
              status: findings.status,
            })
            .from(findings)
            .where(inArray(findings.assetId, assetIds));
    const known = new Map(existing.map((f) => [`${f.assetId}|${f.componentKey}|${f.vulnId}`, f]));

    const found = new Set<string>();
    const rows: (typeof findings.$inferInsert)[] = [];
    const reopened: string[] = [];
    let news = 0;
    for (const c of components) {
      for (const m of byComponent.get(c.key) ?? []) {
        const ref = refs.get(m.refId);
        if (!ref) continue;
        const identity = `${c.assetId}|${c.key}|${m.refId}`;
        found.add(identity);
        const before = known.get(identity);
        if (!before) news++;
        else if (before.status === 'fixed') reopened.push(before.id);
        rows.push({
          spaceId: input.spaceId,
          assetId: c.assetId,
          componentKey: c.key,
          purl: c.purl,
          ecosystem: c.ecosystem,
          packageName: c.name,
          version: c.version,
          vulnId: m.refId,
          aliases: ref.aliases,
          summary: ref.summary,
          severity: ref.severity,
          score: ref.score,
          fixedIn: m.fixedIn,
          firstSeen: input.now,
          lastSeen: input.now,
          updatedAt: input.now,
        });
      }
    }
    for (const part of chunksOf(rows, 500)) {
      await tx
        .insert(findings)
        .values(part)
        .onConflictDoUpdate({
          target: [findings.assetId, findings.componentKey, findings.vulnId],
          set: {
            aliases: sql`excluded.aliases`,
            summary: sql`excluded.summary`,
            severity: sql`excluded.severity`,
            score: sql`excluded.score`,
            fixedIn: sql`excluded.fixed_in`,
            purl: sql`excluded.purl`,
            lastSeen: sql`excluded.last_seen`,
            // Found again after it was fixed: open again. Any other status is a person's (or a patch's) decision.
            status: sql`case when ${findings.status} = 'fixed' then 'open' else ${findings.status} end`,
            fixedAt: sql`case when ${findings.status} = 'fixed' then null else ${findings.fixedAt} end`,
            updatedAt: sql`case when ${findings.status} = 'fixed' then excluded.updated_at else ${findings.updatedAt} end`,
          },
        });
    }
    const gone = existing.filter(
      (f) => f.status !== 'fixed' && !found.has(`${f.assetId}|${f.componentKey}|${f.vulnId}`),
    );
    for (const ids of chunksOf(
      gone.map((f) => f.id),
      1_000,
    )) {
      await tx
        .update(findings)
        .set({ status: 'fixed', fixedAt: input.now, updatedAt: input.now })
        .where(and(inArray(findings.id, ids), ne(findings.status, 'fixed')));
    }
    const why = input.trigger === 'import' ? 'Assessment after a library import' : 'Assessment';
    for (const f of gone)
      await recordDecision(tx, {
        spaceId: input.spaceId,
        subject: { type: 'finding', id: f.id },
        decision: 'fixed',
        actor: systemActor,
        reason: `${why}: the component no longer has this vulnerability.`,
        change: { status: { from: f.status, to: 'fixed' } },
        at: input.now,
      });
    for (const id of reopened)
      await recordDecision(tx, {
        spaceId: input.spaceId,
        subject: { type: 'finding', id },
        decision: 'reopened',
        actor: systemActor,
        reason: `${why}: the vulnerability is present again.`,
        change: { status: { from: 'fixed', to: 'open' } },
        at: input.now,
      });
    if (assetIds.length > 0)
      await tx.update(assets).set({ lastAssessedAt: input.now }).where(inArray(assets.id, assetIds));
    const open = { ...zeroCounts(), ...(await openCounts(tx, input.spaceId)) };
    const [row] = await tx
      .insert(assessments)
      .values({
        spaceId: input.spaceId,
        assetId: input.assetId,
        trigger: input.trigger,
        assets: assetIds.length,
        components: components.length,
        findingsNew: news,
        findingsFixed: gone.length,
        findingsReopened: reopened.length,
        openBySeverity: open,
        durationMs: Math.round(performance.now() - started),
        startedById: input.actor.id,
        startedByName: input.actor.name,
        at: input.now,
      })
      .returning();
    if (!row) throw new Error('insert returned nothing');
    return row;
  });
}

/** An assessment as answered. */
export function assessmentView(row: AssessmentRow): Assessment {
  return {
    id: row.id,
    at: row.at.toISOString(),
    assetId: row.assetId,
    trigger: row.trigger === 'import' ? 'import' : 'manual',
    assets: row.assets,
    components: row.components,
    findingsNew: row.findingsNew,
    findingsFixed: row.findingsFixed,
    findingsReopened: row.findingsReopened,
    open: { ...zeroCounts(), ...row.openBySeverity },
    durationMs: row.durationMs,
    startedBy: { id: row.startedById, name: row.startedByName },
  };
}
