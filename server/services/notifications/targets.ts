/** How a channel is written in a delivery's `target` (the log shows it, email deliveries read their addresses back). */
import type { StoredChannel } from '../../db/schema/alerts.ts';

/** What a delivery to a channel is sent to: the webhook URL, or the addresses separated by commas. */
export function channelTarget(channel: StoredChannel): string {
  return channel.kind === 'webhook' ? channel.url : channel.to.join(', ');
}

/** The addresses of an email delivery's target. */
export function addressesOf(target: string): string[] {
  return target
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean);
}
