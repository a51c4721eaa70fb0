import { describe, expect, test } from 'vitest';
import { areaHref, areaOf } from './console-areas.ts';

describe('the rail area of a page', () => {
  test('the event log route is Events, and Log sources with its sources view', () => {
    expect(areaOf('/console/siem/{space_id}', null)?.label).toBe('Events');
    expect(areaOf('/console/siem/{space_id}', 'sources')?.label).toBe('Log sources');
    // A view the rail does not know leaves the route's own area current.
    expect(areaOf('/console/siem/{space_id}', 'other')?.label).toBe('Events');
  });

  test("a source's page belongs to Log sources, a child route to its list", () => {
    expect(areaOf('/console/siem/manage/{space_id}/{id}', null)?.label).toBe('Log sources');
    expect(areaOf('/console/alert/{space_id}/{id}', null)?.label).toBe('Alerts');
    expect(areaOf('/profile', null)).toBeUndefined();
  });

  test('an area with a view links to its route with that view', () => {
    const sources = areaOf('/console/siem/{space_id}', 'sources');
    const events = areaOf('/console/siem/{space_id}', null);
    expect(sources && areaHref(sources, 's1')).toBe('/console/siem/s1?view=sources');
    expect(events && areaHref(events, 's1')).toBe('/console/siem/s1');
  });
});
