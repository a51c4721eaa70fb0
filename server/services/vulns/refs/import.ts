/**
 * Importing OSV records into a space's library: a small JSON body at once, a zip or a larger JSON body by the
 * `vulns.import` job, whose progress (files read of total, counts, refused files) is written to `vuln_imports` as
 * it goes. An import that changed the library enqueues a re-assessment of the space in its last transaction.
 */
import { eq } from 'drizzle-orm';
import type { OsvRecord, RefusedFile } from '../../../../contract/vuln-refs.ts';
import type { SpaceCaller } from '../../../caller.ts';
import type { Db } from '../../../db/database.ts';
import { type VulnImportRow, vulnImports } from '../../../db/schema/vulns.ts';
import { ApiError } from '../../../errors.ts';
import { recordActivity } from '../../activity/record.ts';
import { enqueue } from '../../jobs/enqueue.ts';
import { type AssessArgs, assessJob } from '../assessments/assess-job.ts';
import { type ImportSource, jsonSource, UnreadableImport, zipSource } from './read.ts';
import { noCounts, storeRecords } from './store.ts';

/** JSON bodies up to this size are imported while the request waits (200); larger ones and zips go to the job (202). */
export const inlineJsonBytes = 1024 * 1024;

/** Records stored per transaction; progress is written after each. */
const batchSize = 200;

/** Refused files kept with their reasons (all are counted). */
const refusedKept = 1_000;

const zipTypes = ['application/zip', 'application/x-zip-compressed', 'application/x-zip'];

/** The kind of an upload by its content type: `json`, `zip`, or null for anything else. */
export function uploadKind(contentType: string): 'json' | 'zip' | null {
  const type = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  if (type === 'application/json') return 'json';
  if (zipTypes.includes(type)) return 'zip';
  return null;
}

/** The `vulns.import` job's arguments: the import to run (its worker is workers/import-worker.ts). */
export type ImportArgs = { importId: string; spaceId: string };

/** The `vulns.import` job's kind, apart from its worker, so that starting an import can enqueue it. */
export const importJob = { kind: 'vulns.import', queue: 'vulns', maxAttempts: 3 } as const;

/** How the reasons a whole zip is refused for name it: the upload's file name. */
const archiveName = (fileName: string | null) => fileName ?? 'The zip archive';

/** Reads an import's body as its content type says: a zip archive or OSV JSON. */
export function sourceOf(row: VulnImportRow, body: Uint8Array): Promise<ImportSource> | ImportSource {
  return uploadKind(row.contentType) === 'zip'
    ? zipSource(body, archiveName(row.fileName))
    : jsonSource(body, row.fileName ?? 'body');
}

/**
 * Reads the import's body and stores its records in batches, writing progress after each; the last transaction
 * marks it done and, when it changed the library, enqueues the space's re-assessment. Throws `UnreadableImport`
 * when the body cannot be read at all, or is refused on the way (a zip bomb: the batches before stay stored).
 */
export async function runImport(
  db: Db,
  row: VulnImportRow,
  source: ImportSource,
  now: () => Date,
  signal?: AbortSignal,
): Promise<void> {
  const counts = noCounts();
  const refused: RefusedFile[] = [];
  let refusedCount = 0;
  let filesRead = 0;
  let batch: OsvRecord[] = [];
  await db
    .update(vulnImports)
    .set({ status: 'running', filesTotal: source.total, filesRead: 0, ...counts, refused: [], refusedCount: 0 })
    .where(eq(vulnImports.id, row.id));
  const progress = () => ({ filesRead, ...counts, refused, refusedCount });
  const flush = async (last: boolean) => {
    const records = batch;
    batch = [];
    await db.transaction(async (tx) => {
      const stored = await storeRecords(tx, row.spaceId, records, now());
      counts.imported += stored.imported;
      counts.updated += stored.updated;
      counts.unchanged += stored.unchanged;
      counts.withdrawn += stored.withdrawn;
      if (!last) {
        await tx.update(vulnImports).set(progress()).where(eq(vulnImports.id, row.id));
        return;
      }
      await tx
        .update(vulnImports)
        .set({ ...progress(), status: 'done', body: null, error: null, finishedAt: now() })
        .where(eq(vulnImports.id, row.id));
      if (counts.imported + counts.updated + counts.withdrawn > 0) {
        await enqueue(tx, assessJob, { spaceId: row.spaceId, assetId: null, trigger: 'import' } satisfies AssessArgs, {
          now: now(),
          spaceId: row.spaceId,
          uniqueKey: `vulns.assess:import:${row.id}`,
        });
      }
    });
  };
  let sinceFlush = 0;
  try {
    for await (const item of source.items) {
      filesRead++;
      sinceFlush++;
      if ('checked' in item) {
        if (item.checked.ok) batch.push(item.checked.record);
        else {
          refusedCount++;
          if (refused.length < refusedKept) refused.push({ file: item.file, reason: item.checked.reason });
        }
      }
      if (sinceFlush >= batchSize) {
        signal?.throwIfAborted();
        sinceFlush = 0;
        await flush(false);
      }
    }
  } catch (error) {
    // Refused while reading (a zip bomb found while inflating): the progress tells where it stopped.
    if (error instanceof UnreadableImport) {
      await db.update(vulnImports).set(progress()).where(eq(vulnImports.id, row.id));
    }
    throw error;
  }
  await flush(true);
}

/** Marks the import failed with the reason, dropping its body. */
export async function fail(db: Db, importId: string, message: string, at: Date) {
  await db
    .update(vulnImports)
    .set({ status: 'failed', error: message, body: null, finishedAt: at })
    .where(eq(vulnImports.id, importId));
}

export type ImportUpload = { body: Uint8Array; contentType: string; fileName: string | null };

/**
 * Starts an import: validates the upload's kind, records it (and the audit entry), then either imports a small
 * JSON body at once or leaves it to the job. Answers the import row and whether it is finished.
 */
export async function startImport(
  sc: SpaceCaller,
  upload: ImportUpload,
): Promise<{ row: VulnImportRow; done: boolean }> {
  const kind = uploadKind(upload.contentType);
  if (!kind) {
    throw new ApiError(
      415,
      'unsupported_media_type',
      'Send OSV records as application/json (one record or an array) or application/zip (a zip of record files).',
    );
  }
  if (upload.body.byteLength === 0)
    throw new ApiError(400, 'validation', 'The file is empty.', { fields: { body: 'The file is empty.' } });
  const refuse = (message: string) => new ApiError(400, 'validation', message, { fields: { body: message } });
  const inline = kind === 'json' && upload.body.byteLength <= inlineJsonBytes;
  // What can be checked cheaply is checked before anything is written: a small JSON body is parsed (and then
  // imported from that parse), a zip's central directory read; a larger JSON body is parsed by the job.
  let source: ImportSource | null = null;
  try {
    if (inline) source = jsonSource(upload.body, upload.fileName ?? 'body');
    else if (kind === 'zip') {
      const zip = await zipSource(upload.body, archiveName(upload.fileName));
      zip.close?.();
      if (zip.total === 0) throw new UnreadableImport('The zip archive holds no files.');
    }
  } catch (error) {
    if (error instanceof UnreadableImport) throw refuse(error.message);
    throw error;
  }
  if (source && source.total === 0) throw refuse('The file holds no records.');
  const { db } = sc.deps;
  const row = await db.transaction(async (tx) => {
    const [created] = await tx
      .insert(vulnImports)
      .values({
        spaceId: sc.space.id,
        status: inline ? 'running' : 'queued',
        fileName: upload.fileName,
        contentType: upload.contentType.split(';')[0]?.trim().toLowerCase() ?? upload.contentType,
        body: inline ? null : upload.body,
        bytes: upload.body.byteLength,
        startedById: sc.user.id,
        startedByName: sc.user.name,
        createdAt: sc.deps.now(),
      })
      .returning();
    if (!created) throw new Error('vuln import: the insert answered no row');
    await recordActivity(tx, sc.actor, {
      spaceId: sc.space.id,
      action: 'vuln_refs.import',
      objectType: 'vuln_import',
      objectId: created.id,
      change: { fileName: upload.fileName, contentType: created.contentType, bytes: created.bytes },
    });
    if (inline) return created;
    const { job } = await enqueue(tx, importJob, { importId: created.id, spaceId: sc.space.id } satisfies ImportArgs, {
      now: sc.deps.now(),
      spaceId: sc.space.id,
      uniqueKey: `vulns.import:${created.id}`,
    });
    const [withJob] = await tx
      .update(vulnImports)
      .set({ jobId: job.id })
      .where(eq(vulnImports.id, created.id))
      .returning();
    return withJob ?? created;
  });
  if (!source) return { row, done: false };
  try {
    await runImport(db, row, source, sc.deps.now);
  } catch (error) {
    await fail(db, row.id, 'The import stopped; try again.', sc.deps.now());
    throw error;
  }
  const [finished] = await db.select().from(vulnImports).where(eq(vulnImports.id, row.id));
  return { row: finished ?? row, done: true };
}
