/** A rule's webhook channels may be reached: checked when they are saved (and again before every send). */
import type { StoredChannel } from '../../../db/schema/alerts.ts';
import type { AppDeps } from '../../../deps.ts';
import { fieldError } from '../../../errors.ts';
import { webhookUrlProblem } from '../../notifications/url-guard.ts';
import type { RuleHooks } from './rules.ts';

/** The checks a rule's save runs outside the rule itself: each webhook URL through the URL guard. */
export function channelChecks(deps: Pick<AppDeps, 'config'>): RuleHooks {
  return {
    async checkChannels(channels: StoredChannel[]) {
      for (const [index, channel] of channels.entries()) {
        if (channel.kind !== 'webhook') continue;
        const problem = await webhookUrlProblem(channel.url, deps.config);
        if (problem) throw fieldError(`channels.${index}.url`, problem);
      }
    },
  };
}
