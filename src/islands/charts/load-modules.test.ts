import { type ChartModule, createModuleLoader, type ModuleImporters } from './load-modules.ts';

function countingImporters(): { importers: ModuleImporters; calls: Record<ChartModule, number>; order: ChartModule[] } {
  const names: ChartModule[] = ['accessibility', 'exporting', 'export-data', 'stock', 'map', 'no-data-to-display'];
  const calls = Object.fromEntries(names.map((name) => [name, 0])) as Record<ChartModule, number>;
  const order: ChartModule[] = [];
  const importers = Object.fromEntries(
    names.map((name) => [
      name,
      async () => {
        calls[name] += 1;
        order.push(name);
        return {};
      },
    ]),
  ) as unknown as ModuleImporters;
  return { importers, calls, order };
}

describe('createModuleLoader', () => {
  test.each([
    { charts: 1, expected: 1 },
    { charts: 5, expected: 1 },
    { charts: 40, expected: 1 },
  ])('$charts charts asking for stock at once import it $expected time', async ({ charts, expected }) => {
    const { importers, calls } = countingImporters();
    const load = createModuleLoader(importers);
    await Promise.all(Array.from({ length: charts }, () => load(['accessibility', 'stock'])));
    await load(['stock']);
    expect(calls.stock).toBe(expected);
    expect(calls.accessibility).toBe(expected);
    expect(calls.map).toBe(0);
  });

  test('a module is not imported before anyone asks for it', async () => {
    const { importers, calls } = countingImporters();
    const load = createModuleLoader(importers);
    await load(['accessibility']);
    expect(calls.stock).toBe(0);
    await load(['stock']);
    expect(calls.stock).toBe(1);
  });

  test('export data runs after exporting, which is imported once', async () => {
    const { importers, calls, order } = countingImporters();
    const load = createModuleLoader(importers);
    await Promise.all([load(['export-data']), load(['exporting'])]);
    expect(calls.exporting).toBe(1);
    expect(order.indexOf('exporting')).toBeLessThan(order.indexOf('export-data'));
  });

  test('a failed import is tried again on the next request', async () => {
    const { importers } = countingImporters();
    let attempts = 0;
    const load = createModuleLoader({
      ...importers,
      map: async () => {
        attempts += 1;
        if (attempts === 1) throw new Error('offline');
        return {};
      },
    });
    await expect(load(['map'])).rejects.toThrow('offline');
    await expect(load(['map'])).resolves.toBeUndefined();
    expect(attempts).toBe(2);
  });
});
