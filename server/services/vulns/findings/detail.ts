/** One finding with its decisions (the shared triage record), its virtual patches and the record's references. */
import { and, eq } from 'drizzle-orm';
import type { FindingDetail } from '../../../../contract/findings.ts';
import type { SpaceCaller } from '../../../caller.ts';
import { assets, findings, vulnRefs } from '../../../db/schema/vulns.ts';
import { notFound } from '../../../errors.ts';
import { timelineOf } from '../../triage/decisions.ts';
import { triageView } from '../../triage/record.ts';
import { findingView, patchesOf, patchView } from './view.ts';

export async function getFinding(sc: SpaceCaller, id: string): Promise<FindingDetail> {
  const { db } = sc.deps;
  const [row] = await db
    .select({ finding: findings, asset: { id: assets.id, name: assets.name, kind: assets.kind } })
    .from(findings)
    .innerJoin(assets, eq(assets.id, findings.assetId))
    .where(and(eq(findings.id, id), eq(findings.spaceId, sc.space.id)));
  if (!row) throw notFound('finding');
  const patches = await patchesOf(db, [id], 'all');
  const timeline = await timelineOf(db, sc.space.id, { type: 'finding', id });
  const [ref] = await db
    .select({ record: vulnRefs.record })
    .from(vulnRefs)
    .where(and(eq(vulnRefs.spaceId, sc.space.id), eq(vulnRefs.id, row.finding.vulnId)));
  const references = Array.isArray(ref?.record.references)
    ? (ref.record.references as { type?: unknown; url?: unknown }[]).flatMap((r) =>
        typeof r.url === 'string' && /^https?:\/\//.test(r.url) ? [{ type: String(r.type ?? 'WEB'), url: r.url }] : [],
      )
    : [];
  const active = patches.find((p) => p.patch.removedAt === null);
  return {
    ...findingView(row.finding, row.asset, active),
    timeline: timeline.map(triageView),
    patches: patches.map(patchView),
    references,
  };
}
