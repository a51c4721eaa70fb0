import {
  type ActivityFilters,
  filterSearch,
  fromLocalInput,
  NO_FILTERS,
  parseFilters,
  toLocalInput,
} from './activity-filters.ts';

const actor = '0b6d3f9e-8a1c-4d2e-9f3a-2b7c8d9e0f1a';

describe('activity filters', () => {
  test.each<{ search: string; expected: ActivityFilters }>([
    { search: '', expected: NO_FILTERS },
    { search: `?actor=${actor}&action=member.remove`, expected: { ...NO_FILTERS, actor, action: 'member.remove' } },
    { search: '?actor=not-an-id&objectType=%20space%20', expected: { ...NO_FILTERS, objectType: 'space' } },
    {
      search: '?from=2026-11-01T00:00:00Z&to=yesterday',
      expected: { ...NO_FILTERS, from: '2026-11-01T00:00:00.000Z' },
    },
  ])('$search reads as $expected', ({ search, expected }) => {
    expect(parseFilters(search)).toEqual(expected);
  });

  test.each<{ filters: ActivityFilters; expected: string }>([
    { filters: NO_FILTERS, expected: '' },
    { filters: { ...NO_FILTERS, action: 'space.update' }, expected: '?action=space.update' },
    {
      filters: { ...NO_FILTERS, objectType: 'member', to: '2026-11-02T10:00:00.000Z' },
      expected: '?objectType=member&to=2026-11-02T10%3A00%3A00.000Z',
    },
  ])('$filters writes $expected', ({ filters, expected }) => {
    expect(filterSearch(filters)).toBe(expected);
    expect(parseFilters(expected)).toEqual(filters);
  });

  test.each([
    { local: '2026-11-21T09:30', expected: '2026-11-21T09:30' },
    { local: '', expected: '' },
  ])('datetime-local $local survives the round trip as $expected', ({ local, expected }) => {
    expect(toLocalInput(fromLocalInput(local))).toBe(expected);
  });
});
