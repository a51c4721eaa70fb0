/** A source's retention as the retention job applies it: its own days when set, capped by the space's. */

/** Days events of the source are kept. */
export function effectiveRetention(sourceDays: number | null, spaceDays: number): number {
  return Math.min(sourceDays ?? spaceDays, spaceDays);
}

/** The retention in words, saying where it comes from. */
export function retentionText(sourceDays: number | null, spaceDays: number): string {
  const days = (n: number) => `${n} ${n === 1 ? 'day' : 'days'}`;
  if (sourceDays === null) return `${days(spaceDays)} (the space’s retention)`;
  if (sourceDays > spaceDays) return `${days(spaceDays)} (${days(sourceDays)} set, capped at the space’s retention)`;
  return days(sourceDays);
}
