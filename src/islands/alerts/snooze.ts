/** Snooze presets and the time a choice stands for: 1 h, 4 h, 24 h, 7 days, or a date and time the user picks. */

/** The presets, in the order the picker lists them, with their length in milliseconds. */
export const SNOOZE_PRESETS = [
  { id: '1h', label: '1 hour', ms: 3_600_000 },
  { id: '4h', label: '4 hours', ms: 14_400_000 },
  { id: '24h', label: '24 hours', ms: 86_400_000 },
  { id: '7d', label: '7 days', ms: 604_800_000 },
] as const;

/** A preset's id, or `custom` for a date and time. */
export type SnoozeChoice = (typeof SNOOZE_PRESETS)[number]['id'] | 'custom';

/**
 * The RFC 3339 time a choice ends at from `now`; `local` is a `datetime-local` value (the user's time zone) for
 * `custom`. Null when the custom time is missing, malformed or not in the future.
 */
export function snoozeUntil(choice: SnoozeChoice, local: string, now: number): string | null {
  const preset = SNOOZE_PRESETS.find((item) => item.id === choice);
  if (preset) return new Date(now + preset.ms).toISOString();
  const at = local === '' ? Number.NaN : new Date(local).getTime();
  return Number.isNaN(at) || at <= now ? null : new Date(at).toISOString();
}
