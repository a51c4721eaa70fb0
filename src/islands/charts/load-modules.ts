/** Loads Highcharts and its extension modules on first request, once per page however many charts ask. */
import type HighchartsNamespace from 'highcharts/esm/highcharts.js';

/** The Highcharts namespace as its ESM build exports it. */
export type Highcharts = typeof HighchartsNamespace;

/** Extension modules a chart may ask for. In Highcharts 13 each ESM module registers itself on import. */
export type ChartModule = 'accessibility' | 'exporting' | 'export-data' | 'stock' | 'map' | 'no-data-to-display';

/** How each module is imported; bundlers turn each entry into a lazy chunk. */
export type ModuleImporters = Readonly<Record<ChartModule, () => Promise<unknown>>>;

const importers: ModuleImporters = {
  accessibility: () => import('highcharts/esm/modules/accessibility.js'),
  exporting: () => import('highcharts/esm/modules/exporting.js'),
  'export-data': () => import('highcharts/esm/modules/export-data.js'),
  stock: () => import('highcharts/esm/modules/stock.js'),
  map: () => import('highcharts/esm/modules/map.js'),
  'no-data-to-display': () => import('highcharts/esm/modules/no-data-to-display.js'),
};

/**
 * Modules every chart gets: screen-reader support and export. Highcharts 13's exporting module exports PNG, JPEG,
 * SVG and print in the browser itself; the offline-exporting module only adds PDF (which needs jsPDF from a URL the
 * site does not serve) and warns "exporting.libURL not defined" on every chart, so it is not loaded.
 */
export const BASE_MODULES: readonly ChartModule[] = ['accessibility', 'exporting', 'export-data', 'no-data-to-display'];

/** Modules that extend another one and must run after it. */
const REQUIRES: Partial<Record<ChartModule, readonly ChartModule[]>> = {
  'export-data': ['exporting'],
};

/** A loader that remembers each module's load, so concurrent and later requests share it. */
export function createModuleLoader(from: ModuleImporters): (modules: readonly ChartModule[]) => Promise<void> {
  const loads = new Map<ChartModule, Promise<unknown>>();
  const load = (name: ChartModule): Promise<unknown> => {
    let pending = loads.get(name);
    if (!pending) {
      const before = REQUIRES[name] ?? [];
      pending = Promise.all(before.map(load))
        .then(() => from[name]())
        .catch((error: unknown) => {
          // A failed load is forgotten so a later chart can try again.
          loads.delete(name);
          throw error;
        });
      loads.set(name, pending);
    }
    return pending;
  };
  return async (modules) => {
    await Promise.all(modules.map(load));
  };
}

/** The page's one module loader. */
export const loadModules = createModuleLoader(importers);

let core: Promise<Highcharts> | undefined;

/** Highcharts itself, imported on the first chart so pages without charts never download it. */
export function loadCore(): Promise<Highcharts> {
  core ??= import('highcharts/esm/highcharts.js').then((module) => module.default);
  return core;
}

/** Highcharts with the base modules and the requested ones registered. */
export async function loadHighcharts(modules: readonly ChartModule[]): Promise<Highcharts> {
  const highcharts = await loadCore();
  await loadModules([...BASE_MODULES, ...modules]);
  return highcharts;
}
