/** A triage entry's change in words: `status: open → acknowledged`, `assignee: nobody → Ana Analyst`. */

const LABELS: Readonly<Record<string, string>> = { assigneeId: 'assignee' };

const isFromTo = (value: unknown): value is { from: unknown; to: unknown } =>
  typeof value === 'object' && value !== null && 'from' in value && 'to' in value;

/** The change's values, member ids named through `names` (user id → name); empty for no change. */
export function changeText(
  change: Readonly<Record<string, unknown>> | null,
  names: ReadonlyMap<string, string>,
): string {
  if (!change) return '';
  const word = (value: unknown): string => {
    if (value === null || value === undefined) return 'nobody';
    if (typeof value === 'string') return names.get(value) ?? value;
    return JSON.stringify(value);
  };
  return Object.entries(change)
    .map(([key, value]) => {
      const label = LABELS[key] ?? key;
      if (!isFromTo(value)) return `${label}: ${word(value)}`;
      const none = key === 'status' ? 'none' : 'nobody';
      const from = value.from === null ? none : word(value.from);
      const to = value.to === null ? none : word(value.to);
      return `${label}: ${from} → ${to}`;
    })
    .join(', ');
}
