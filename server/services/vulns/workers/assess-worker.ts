/** The `vulns.assess` job: the re-assessment of a space a library import asks for, run as the system. */
import { defineWorker } from '../../jobs/worker.ts';
import { systemActor } from '../../triage/record.ts';
import { assess } from '../assessments/assess.ts';
import { type AssessArgs, assessJob } from '../assessments/assess-job.ts';

/** `vulns.assess`: the re-assessment a library import asks for, as the system. */
export const assessWorker = defineWorker<AssessArgs>({
  ...assessJob,
  timeoutMs: 10 * 60_000,
  async perform(args, ctx) {
    await assess(ctx.db, {
      spaceId: args.spaceId,
      assetId: args.assetId,
      trigger: args.trigger,
      actor: systemActor,
      now: ctx.now(),
    });
  },
});
