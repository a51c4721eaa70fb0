/** The time zones offered by the settings form: the runtime's IANA list, with UTC and the current value always in it. */
export function timeZoneOptions(current: string): readonly string[] {
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  const list = known.includes('UTC') ? [...known] : ['UTC', ...known];
  if (current && !list.includes(current)) list.unshift(current);
  return list;
}
