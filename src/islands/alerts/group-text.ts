/** An alert's group as one line, `ip=203.0.113.9 rule=942100`; an empty group (the rule does not group) reads "all events". */
export function groupText(group: Readonly<Record<string, string>>): string {
  const entries = Object.entries(group);
  return entries.length === 0 ? 'all events' : entries.map(([field, value]) => `${field}=${value}`).join(' ');
}
