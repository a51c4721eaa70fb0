/** The group values of a suppression's scope (its `groupKey` and `alertId` are bookkeeping, not part of the group). */
export function scopeGroup(scope: Readonly<Record<string, string>> | null): Record<string, string> {
  const { groupKey: _groupKey, alertId: _alertId, ...group } = scope ?? {};
  return group;
}
