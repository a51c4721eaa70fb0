/**
 * An asset's findings as a CycloneDX 1.5 VEX document: one vulnerability per (vulnerability, component) with its
 * analysis state and justification, affecting the component by its bom-ref (its package URL where it has one).
 */
import { and, asc, eq } from 'drizzle-orm';
import type { SpaceCaller } from '../../../caller.ts';
import { assets, findings } from '../../../db/schema/vulns.ts';
import { notFound } from '../../../errors.ts';

/** CycloneDX `analysis.state` per finding status. */
const stateOf: Record<string, string> = {
  open: 'exploitable',
  not_affected: 'not_affected',
  accepted: 'exploitable',
  mitigated: 'exploitable',
  fixed: 'resolved',
};

/** CycloneDX `analysis.response` per status, where one applies. */
const responseOf: Record<string, string[]> = {
  accepted: ['will_not_fix'],
  mitigated: ['workaround_available'],
  fixed: ['update'],
};

/** The VEX document and a file name for it. */
export async function assetVex(
  sc: SpaceCaller,
  assetId: string,
): Promise<{ fileName: string; document: Record<string, unknown> }> {
  const { db } = sc.deps;
  const [asset] = await db
    .select()
    .from(assets)
    .where(and(eq(assets.id, assetId), eq(assets.spaceId, sc.space.id)));
  if (!asset) throw notFound('asset');
  const rows = await db
    .select()
    .from(findings)
    .where(eq(findings.assetId, asset.id))
    .orderBy(asc(findings.vulnId), asc(findings.componentKey));
  const now = sc.deps.now();
  const document = {
    bomFormat: 'CycloneDX',
    specVersion: '1.5',
    serialNumber: `urn:uuid:${crypto.randomUUID()}`,
    version: 1,
    metadata: {
      timestamp: now.toISOString(),
      tools: { components: [{ type: 'application', name: 'Spaceguard' }] },
      component: {
        type: asset.kind === 'host' ? 'operating-system' : 'application',
        name: asset.name,
        'bom-ref': asset.id,
      },
    },
    vulnerabilities: rows.map((f) => {
      const response = responseOf[f.status];
      const detail = [f.reason, f.status === 'accepted' && f.until ? `Accepted until ${f.until.toISOString()}.` : null]
        .filter(Boolean)
        .join(' ');
      return {
        'bom-ref': `${f.vulnId}/${f.componentKey}`,
        id: f.vulnId,
        source: { name: 'OSV' },
        ...(f.aliases.length > 0
          ? { references: f.aliases.map((id) => ({ id, source: { name: id.startsWith('CVE-') ? 'NVD' : 'OSV' } })) }
          : {}),
        ...(f.score !== null
          ? { ratings: [{ score: f.score, severity: f.severity, method: 'other' }] }
          : { ratings: [{ severity: f.severity }] }),
        ...(f.summary ? { description: f.summary } : {}),
        ...(f.fixedIn ? { recommendation: `Upgrade ${f.packageName} to ${f.fixedIn} or later.` } : {}),
        analysis: {
          state: stateOf[f.status] ?? 'in_triage',
          ...(f.justification ? { justification: f.justification } : {}),
          ...(response ? { response } : {}),
          ...(detail ? { detail } : {}),
          firstIssued: f.firstSeen.toISOString(),
          lastUpdated: f.updatedAt.toISOString(),
        },
        affects: [
          {
            ref: f.purl ?? f.componentKey,
            versions: [
              {
                version: f.version,
                status: f.status === 'fixed' ? 'unaffected' : f.status === 'not_affected' ? 'unaffected' : 'affected',
              },
            ],
          },
        ],
      };
    }),
  };
  const safe = asset.name.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '') || 'asset';
  return { fileName: `${safe}.vex.cdx.json`, document };
}
