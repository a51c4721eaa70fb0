/** The `vulns.import` job: runs one queued import of OSV records into a space's library (refs/import.ts). */
import { and, eq } from 'drizzle-orm';
import { vulnImports } from '../../../db/schema/vulns.ts';
import { DiscardJob, defineWorker } from '../../jobs/worker.ts';
import { fail, type ImportArgs, importJob, runImport, sourceOf } from '../refs/import.ts';
import { UnreadableImport } from '../refs/read.ts';

/** The `vulns.import` job: runs one queued import; a body that cannot be read fails it at once with the reason. */
export const importWorker = defineWorker<ImportArgs>({
  ...importJob,
  timeoutMs: 30 * 60_000,
  async perform(args, ctx) {
    const [row] = await ctx.db
      .select()
      .from(vulnImports)
      .where(and(eq(vulnImports.id, args.importId), eq(vulnImports.spaceId, args.spaceId)));
    if (!row || row.status === 'done' || row.status === 'failed') return;
    if (!row.body) {
      await fail(ctx.db, row.id, 'The upload is gone; import the file again.', ctx.now());
      return;
    }
    try {
      await runImport(ctx.db, row, await sourceOf(row, row.body), ctx.now, ctx.signal);
    } catch (error) {
      if (error instanceof UnreadableImport) {
        await fail(ctx.db, row.id, error.message, ctx.now());
        throw new DiscardJob(error.message);
      }
      if (ctx.job.attempt >= ctx.job.maxAttempts) {
        await fail(ctx.db, row.id, `The import stopped: ${(error as Error).message}`, ctx.now());
      }
      throw error;
    }
  },
});
