/** Assessments asked for by a person (`POST .../assessments`), their list and the findings' trend. */
import { and, asc, count, desc, eq } from 'drizzle-orm';
import type { Assessment, FindingTrend } from '../../../../contract/findings.ts';
import type { SpaceCaller } from '../../../caller.ts';
import { assessments, assets, vulnRefs } from '../../../db/schema/vulns.ts';
import { notFound } from '../../../errors.ts';
import { recordActivity } from '../../activity/record.ts';
import { openCounts } from '../findings/list.ts';
import { zeroCounts } from '../findings/view.ts';
import { assess, assessmentView } from './assess.ts';

/** Assesses one asset of the space, or all of them, now (admins). */
export async function runAssessment(sc: SpaceCaller, body: { assetId?: string | undefined }): Promise<Assessment> {
  const { db } = sc.deps;
  if (body.assetId) {
    const [asset] = await db
      .select({ id: assets.id })
      .from(assets)
      .where(and(eq(assets.id, body.assetId), eq(assets.spaceId, sc.space.id)));
    if (!asset) throw notFound('asset');
  }
  const row = await assess(db, {
    spaceId: sc.space.id,
    assetId: body.assetId ?? null,
    trigger: 'manual',
    actor: sc.actor,
    now: sc.deps.now(),
  });
  await recordActivity(db, sc.actor, {
    spaceId: sc.space.id,
    action: 'assessment.run',
    objectType: 'assessment',
    objectId: row.id,
    change: {
      ...(row.assetId ? { assetId: row.assetId } : {}),
      components: row.components,
      new: row.findingsNew,
      fixed: row.findingsFixed,
      reopened: row.findingsReopened,
    },
  });
  const [library] = await db.select({ n: count() }).from(vulnRefs).where(eq(vulnRefs.spaceId, sc.space.id));
  return { ...assessmentView(row), libraryRecords: library?.n ?? 0 };
}

/** The space's assessments, newest first (at most 100). */
export async function listAssessments(sc: SpaceCaller): Promise<{ items: Assessment[] }> {
  const rows = await sc.deps.db
    .select()
    .from(assessments)
    .where(eq(assessments.spaceId, sc.space.id))
    .orderBy(asc(assessments.at))
    .limit(100);
  return { items: rows.reverse().map(assessmentView) };
}

/**
 * Open findings by severity after each assessment, oldest first (at most the last 2 000 assessments), then now: a
 * triage, an expiry or a patch since the last assessment changes the open counts, and the trend ends on the counts
 * the findings list shows.
 */
export async function findingTrend(sc: SpaceCaller): Promise<FindingTrend> {
  const rows = await sc.deps.db
    .select({ at: assessments.at, open: assessments.openBySeverity })
    .from(assessments)
    .where(eq(assessments.spaceId, sc.space.id))
    .orderBy(desc(assessments.at))
    .limit(2_000);
  if (rows.length === 0) return { points: [] };
  const points = rows.reverse().map((r) => ({ at: r.at.toISOString(), open: { ...zeroCounts(), ...r.open } }));
  const now = sc.deps.now();
  const last = rows.at(-1)?.at;
  if (last && last.getTime() < now.getTime())
    points.push({ at: now.toISOString(), open: await openCounts(sc.deps.db, sc.space.id) });
  return { points };
}
