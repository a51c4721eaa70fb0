import { describe, expect, test } from 'vitest';
import { readExploreView, writeExploreView } from './view-url.ts';

const model = {
  timeRange: { from: 'now-24h', to: 'now' },
  variables: [
    { name: 'country', field: 'country' as const, multi: true, default: ['FR'] },
    { name: 'host', field: 'host' as const },
  ],
};

describe('the explore view in the URL', () => {
  test('the defaults write nothing and read back as the defaults', () => {
    const view = readExploreView('', model);
    expect(view).toEqual({ range: { from: 'now-24h', to: 'now' }, values: { country: ['FR'], host: [] } });
    expect(writeExploreView(view, model)).toBe('');
  });

  test('a range and chosen values go to the URL and come back the same', () => {
    const view = {
      range: { from: '2026-11-20T00:00:00.000Z', to: '2026-11-21T00:00:00.000Z' },
      values: { country: ['DE', 'US'], host: ['shop.example.com'] },
    };
    const search = writeExploreView(view, model);
    expect(search).toBe(
      '?from=2026-11-20T00%3A00%3A00.000Z&to=2026-11-21T00%3A00%3A00.000Z&var-country=DE&var-country=US&var-host=shop.example.com',
    );
    expect(readExploreView(search, model)).toEqual(view);
  });

  test('no value chosen (every event) differs from the default and survives the round trip', () => {
    const view = { range: model.timeRange, values: { country: [], host: [] } };
    expect(writeExploreView(view, model)).toBe('?var-country=');
    expect(readExploreView('?var-country=', model).values.country).toEqual([]);
  });

  test('a bad or reversed range, unknown variables and extra values of a single-value variable are ignored', () => {
    expect(readExploreView('?from=yesterday&to=now', model).range).toEqual(model.timeRange);
    expect(readExploreView('?from=now&to=now-1h', model).range).toEqual(model.timeRange);
    expect(readExploreView('?from=now-7d', model).range).toEqual(model.timeRange);
    expect(readExploreView('?from=now-7d&to=now', model).range).toEqual({ from: 'now-7d', to: 'now' });
    const view = readExploreView('?var-nope=1&var-host=a&var-host=b', model);
    expect(view.values).toEqual({ country: ['FR'], host: ['a'] });
  });
});
