/** Search-engine and preview bots, who never see the error page: their errors are only logged. */
export const BOT_PATTERN = /bot|lighthouse|facebookexternalhit|google/i;

/** True when the user agent belongs to a crawler or link-preview bot. */
export function isBot(userAgent: string): boolean {
  return BOT_PATTERN.test(userAgent);
}
