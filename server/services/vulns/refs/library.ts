/** Reading a space's library: the searched and filtered list, one record's detail, the imports and their progress. */

import { and, desc, eq, getTableColumns, gte, ilike, lt, or, type SQL, sql } from 'drizzle-orm';
import type {
  OsvRecord,
  VulnImport,
  VulnImportList,
  VulnRefDetail,
  VulnRefList,
  VulnRefQuery,
  VulnRefSummary,
} from '../../../../contract/vuln-refs.ts';
import type { SpaceCaller } from '../../../caller.ts';
import { type VulnImportRow, type VulnRefRow, vulnImports, vulnRefs } from '../../../db/schema/vulns.ts';
import { fieldError, notFound } from '../../../errors.ts';
import { anywhere } from '../../shared/like.ts';
import { baseEcosystem } from '../ecosystems/names.ts';
import { rangeInWords } from './ranges.ts';
import { recordSeverity } from './severity.ts';
import { answerTime, instantOf } from './times.ts';

const invalidCursor = 'This cursor is not valid; start from the first page.';

function encodeCursor(row: { modified: Date; id: string }): string {
  return Buffer.from(JSON.stringify([row.modified.toISOString(), row.id])).toString('base64url');
}

/** The rows after a cursor in (modified desc, id desc) order; a cursor the server did not write is a 400. */
function afterCursor(cursor: string): SQL | undefined {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw fieldError('cursor', invalidCursor);
  }
  if (!Array.isArray(decoded) || decoded.length !== 2) throw fieldError('cursor', invalidCursor);
  const [at, id] = decoded as unknown[];
  const time = typeof at === 'string' ? Date.parse(at) : Number.NaN;
  if (typeof id !== 'string' || id.length > 200 || id.includes('\0') || !Number.isFinite(time)) {
    throw fieldError('cursor', invalidCursor);
  }
  const date = new Date(time);
  return or(lt(vulnRefs.modified, date), and(eq(vulnRefs.modified, date), lt(vulnRefs.id, id)));
}

const iso = (date: Date | null) => (date ? date.toISOString() : null);

/** The record's times, read for any year (`instantOf`). */
const timeColumns = {
  modified: instantOf(vulnRefs.modified),
  published: instantOf(vulnRefs.published) as SQL<Date | null>,
  withdrawn: instantOf(vulnRefs.withdrawn) as SQL<Date | null>,
};

/** The columns the list reads (not the record itself, which can be large). */
const summaryColumns = {
  id: vulnRefs.id,
  aliases: vulnRefs.aliases,
  summary: vulnRefs.summary,
  ecosystems: vulnRefs.ecosystems,
  severity: vulnRefs.severity,
  score: vulnRefs.score,
  ...timeColumns,
};

type SummaryRow = Pick<VulnRefRow, keyof typeof summaryColumns>;

function summaryView(row: SummaryRow): VulnRefSummary {
  return {
    id: row.id,
    aliases: row.aliases,
    summary: row.summary,
    ecosystems: row.ecosystems,
    severity: row.severity as VulnRefSummary['severity'],
    score: row.score,
    modified: answerTime(row.modified),
    published: answerTime(row.published),
    withdrawn: answerTime(row.withdrawn),
  };
}

/** The library's page: `q` in the id, aliases, package names and summary; filters; newest `modified` first. */
export async function listRefs(sc: SpaceCaller, query: VulnRefQuery): Promise<VulnRefList> {
  const where: (SQL | undefined)[] = [eq(vulnRefs.spaceId, sc.space.id)];
  const q = query.q?.trim().toLowerCase();
  if (q) where.push(ilike(vulnRefs.searchText, anywhere(q)));
  if (query.ecosystem) where.push(sql`${query.ecosystem} = any(${vulnRefs.ecosystems})`);
  if (query.severity) where.push(eq(vulnRefs.severity, query.severity));
  if (query.modifiedFrom) where.push(gte(vulnRefs.modified, new Date(`${query.modifiedFrom}T00:00:00Z`)));
  if (query.modifiedTo) {
    const end = new Date(`${query.modifiedTo}T00:00:00Z`);
    end.setUTCDate(end.getUTCDate() + 1);
    where.push(lt(vulnRefs.modified, end));
  }
  if (query.cursor) where.push(afterCursor(query.cursor));
  const rows = await sc.deps.db
    .select(summaryColumns)
    .from(vulnRefs)
    .where(and(...where))
    .orderBy(desc(vulnRefs.modified), desc(vulnRefs.id))
    .limit(query.limit + 1);
  const items = rows.slice(0, query.limit);
  const last = items.at(-1);
  return { items: items.map(summaryView), nextCursor: rows.length > query.limit && last ? encodeCursor(last) : null };
}

/** One record whole: severities scored, affected packages with their ranges in words, references, aliases. */
export async function getRef(sc: SpaceCaller, id: string): Promise<VulnRefDetail> {
  const [row] = await sc.deps.db
    .select({ ...getTableColumns(vulnRefs), ...timeColumns })
    .from(vulnRefs)
    .where(and(eq(vulnRefs.spaceId, sc.space.id), eq(vulnRefs.id, id)));
  if (!row) throw notFound('record');
  const record = row.record as OsvRecord;
  const severity = recordSeverity(record);
  const severityWord = (value: unknown) => (typeof value === 'string' ? value : null);
  return {
    ...summaryView(row),
    details: record.details ?? '',
    severitySource: severity.source,
    severities: severity.severities,
    affected: (record.affected ?? []).map((entry) => ({
      ecosystem: entry.package?.ecosystem ?? '',
      name: entry.package?.name ?? '',
      purl: entry.package?.purl ?? null,
      matched: !row.withdrawn && entry.package !== undefined && baseEcosystem(entry.package.ecosystem) !== null,
      ranges: (entry.ranges ?? []).map((range) => ({
        type: range.type,
        repo: range.repo ?? null,
        words: rangeInWords(range),
      })),
      versions: entry.versions ?? [],
      severity:
        severityWord(entry.ecosystem_specific?.severity) ??
        severityWord(entry.ecosystem_specific?.urgency) ??
        severityWord(entry.database_specific?.severity),
    })),
    references: (record.references ?? []).map((ref) => ({ type: ref.type, url: ref.url })),
    related: record.related ?? [],
    importedAt: row.importedAt.toISOString(),
  };
}

export function importView(row: VulnImportRow): VulnImport {
  return {
    id: row.id,
    status: row.status as VulnImport['status'],
    fileName: row.fileName,
    contentType: row.contentType,
    bytes: row.bytes,
    filesTotal: row.filesTotal,
    filesRead: row.filesRead,
    imported: row.imported,
    updated: row.updated,
    unchanged: row.unchanged,
    withdrawn: row.withdrawn,
    refused: row.refused,
    refusedCount: row.refusedCount,
    error: row.error,
    startedByName: row.startedByName,
    createdAt: row.createdAt.toISOString(),
    finishedAt: iso(row.finishedAt),
  };
}

/** The columns of an import without its body (the upload can be hundreds of MiB). */
const importColumns = (() => {
  const { body: _body, ...columns } = getTableColumns(vulnImports);
  return columns;
})();

/** The space's 20 newest imports, running ones included. */
export async function listImports(sc: SpaceCaller): Promise<VulnImportList> {
  const rows = await sc.deps.db
    .select(importColumns)
    .from(vulnImports)
    .where(eq(vulnImports.spaceId, sc.space.id))
    .orderBy(desc(vulnImports.createdAt), desc(vulnImports.id))
    .limit(20);
  return { items: rows.map((row) => importView({ ...row, body: null })) };
}

/** One import and its progress. */
export async function getImport(sc: SpaceCaller, id: string): Promise<VulnImport> {
  const [row] = await sc.deps.db
    .select(importColumns)
    .from(vulnImports)
    .where(and(eq(vulnImports.spaceId, sc.space.id), eq(vulnImports.id, id)));
  if (!row) throw notFound('import');
  return importView({ ...row, body: null });
}
