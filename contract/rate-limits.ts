/**
 * What nginx's `limit_req` can enforce of a rate limit, and what the console says about it: zod-free, so the firewall
 * settings island and the contract's validation share one text.
 */
export type Rate = { requests: number; windowSeconds: number };

/**
 * The rate nginx's `limit_req` enforces N requests per W s at, or null when it has none: nginx counts whole requests a
 * second or a minute, so N/W must be a whole number a second, or N·60/W a whole number (at least 1) a minute.
 */
export function limitReqRate({ requests, windowSeconds }: Rate): { count: number; unit: 's' | 'm' } | null {
  if (requests % windowSeconds === 0) return { count: requests / windowSeconds, unit: 's' };
  if ((requests * 60) % windowSeconds === 0) return { count: (requests * 60) / windowSeconds, unit: 'm' };
  return null;
}

/** A number of seconds as people read it: at most two decimals, thousands separated. */
function secondsText(value: number): string {
  return value.toLocaleString('en', { maximumFractionDigits: 2 });
}

/** Why nginx cannot enforce N requests per W s as typed, naming the slowest rate and the nearest ones it can; or null. */
export function rateLimitProblem(limit: Rate): string | null {
  const { requests, windowSeconds } = limit;
  // Counts out of range have their own messages.
  if (!Number.isInteger(requests) || !Number.isInteger(windowSeconds) || requests < 1 || windowSeconds < 1) return null;
  if (limitReqRate(limit) !== null) return null;
  const most = requests * 60;
  const what = `${requests.toLocaleString('en')} ${requests === 1 ? 'request' : 'requests'}`;
  if (windowSeconds > most) {
    return `nginx cannot count ${what} per ${secondsText(windowSeconds)} s: the slowest rate it enforces is 1 request per 60 s, so ${what} ${requests === 1 ? 'needs' : 'need'} a window of at most ${secondsText(most)} s.`;
  }
  // The window nearest the one typed that divides N·60 (ties: the longer, stricter one).
  let nearest = 1;
  for (let divisor = 1; divisor * divisor <= most; divisor++) {
    if (most % divisor !== 0) continue;
    for (const candidate of [divisor, most / divisor]) {
      const better = Math.abs(candidate - windowSeconds) - Math.abs(nearest - windowSeconds);
      if (better < 0 || (better === 0 && candidate > nearest)) nearest = candidate;
    }
  }
  const perMinute = Math.max(1, Math.round(most / windowSeconds));
  return `nginx counts whole requests a second or a minute, and ${what} per ${secondsText(windowSeconds)} s is ${secondsText(most / windowSeconds)} a minute: use a window of ${secondsText(nearest)} s for ${what}, or ${perMinute.toLocaleString('en')} per 60 s.`;
}

/**
 * What the firewall does with N requests per W s, in the words the console shows: nginx lets N through at once, then
 * one more each time its counter drains one, which it does in thousandths of a request a second (so 1 a minute is one
 * every 62.5 s); null when nginx cannot enforce the limit (`rateLimitProblem` says why).
 */
export function rateLimitMeaning(limit: Rate): string | null {
  const rate = limitReqRate(limit);
  if (rate === null) return null;
  const thousandths = Math.floor((rate.count * 1000) / (rate.unit === 's' ? 1 : 60));
  const burst =
    limit.requests === 1
      ? '1 request through'
      : `up to ${limit.requests.toLocaleString('en')} requests through at once`;
  return `Lets ${burst}, then one more every ${secondsText(1000 / thousandths)} s (nginx limit_req rate=${rate.count}r/${rate.unit}).`;
}
