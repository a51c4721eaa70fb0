/** Filters of the activity screen, kept in the URL query so a link reproduces the view (docs/product.md §3). */

export const FILTER_KEYS = ['actor', 'action', 'objectType', 'from', 'to'] as const;
export type FilterKey = (typeof FILTER_KEYS)[number];
/** Every filter as text; '' means "any". `from` and `to` are RFC 3339 instants. */
export type ActivityFilters = Readonly<Record<FilterKey, string>>;

export const NO_FILTERS: ActivityFilters = { actor: '', action: '', objectType: '', from: '', to: '' };

/** Actions the API records, offered as suggestions (any text is accepted). */
export const KNOWN_ACTIONS = [
  'api_token.create',
  'api_token.revoke',
  'api_token.rotate',
  'invitation.create',
  'invitation.revoke',
  'member.join',
  'member.leave',
  'member.remove',
  'member.role_change',
  'session.revoke',
  'space.create',
  'space.delete',
  'space.transfer',
  'space.update',
] as const;

/** Object types the API records, offered as suggestions. */
export const KNOWN_OBJECT_TYPES = ['api_token', 'invitation', 'member', 'session', 'space', 'user'] as const;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function instant(value: string | null): string {
  if (!value) return '';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? '' : date.toISOString();
}

function word(value: string | null): string {
  return (value ?? '').trim().slice(0, 100);
}

/** Reads the filters from a query string, dropping what the API would refuse (a malformed id or date). */
export function parseFilters(search: string): ActivityFilters {
  const params = new URLSearchParams(search);
  const actor = (params.get('actor') ?? '').trim();
  return {
    actor: UUID.test(actor) ? actor.toLowerCase() : '',
    action: word(params.get('action')),
    objectType: word(params.get('objectType')),
    from: instant(params.get('from')),
    to: instant(params.get('to')),
  };
}

/** The filters that are set, as API query parameters. */
export function filterQuery(filters: ActivityFilters): Partial<Record<FilterKey, string>> {
  const query: Partial<Record<FilterKey, string>> = {};
  for (const key of FILTER_KEYS) if (filters[key]) query[key] = filters[key];
  return query;
}

/** The URL query for the filters: '' when none is set, else '?…'. */
export function filterSearch(filters: ActivityFilters): string {
  const search = new URLSearchParams(filterQuery(filters)).toString();
  return search ? `?${search}` : '';
}

/** True when at least one filter is set. */
export function hasFilters(filters: ActivityFilters): boolean {
  return FILTER_KEYS.some((key) => filters[key] !== '');
}

const pad = (n: number): string => String(n).padStart(2, '0');

/** An instant as a `datetime-local` value in the user's zone ('' stays ''). */
export function toLocalInput(iso: string): string {
  const date = new Date(iso);
  if (!iso || Number.isNaN(date.getTime())) return '';
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** A `datetime-local` value (the user's zone) as an instant ('' stays ''). */
export function fromLocalInput(value: string): string {
  return instant(value);
}
