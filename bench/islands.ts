/** Island weights (gzip, own code and lazy chunks) and the JSON viewer's speed on a 5 MB document. */
import { mkdir, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { build, type Metafile } from 'esbuild';
import { kb, ms, table } from './lib/format.ts';
import { gzipBytes } from './lib/sizes.ts';
import { median } from './lib/stats.ts';

const ROOT = join(import.meta.dirname, '..');

/** The island entries, as pages load them. */
const ISLANDS: Readonly<Record<string, string>> = {
  Highchart: 'src/islands/charts/Highchart.tsx',
  Highstock: 'src/islands/charts/Highstock.tsx',
  Highmap: 'src/islands/charts/Highmap.tsx',
  ChartTypeSelect: 'src/islands/charts/ChartTypeSelect.tsx',
  LeafletMap: 'src/islands/map/LeafletMap.tsx',
  JsonViewer: 'src/islands/json-viewer/JsonViewer.tsx',
  Markdown: 'src/islands/markdown/Markdown.tsx',
};

const EXTERNAL = ['react', 'react-dom', 'react/jsx-runtime', 'react-dom/client'];

// What each island imports on first use, as the module paths its dynamic imports name.
const HIGHCHARTS_BASE = [
  'highcharts/esm/highcharts.js',
  'highcharts/esm/modules/accessibility.js',
  'highcharts/esm/modules/exporting.js',
  'highcharts/esm/modules/offline-exporting.js',
  'highcharts/esm/modules/export-data.js',
  'highcharts/esm/modules/no-data-to-display.js',
];
const LAZY_ON_FIRST_USE: Readonly<Record<string, readonly string[]>> = {
  Highchart: HIGHCHARTS_BASE,
  Highstock: [...HIGHCHARTS_BASE, 'highcharts/esm/modules/stock.js'],
  Highmap: [...HIGHCHARTS_BASE, 'highcharts/esm/modules/map.js'],
  LeafletMap: ['leaflet/dist/leaflet-src.js'],
};

interface IslandWeight {
  readonly name: string;
  readonly own: number;
  readonly css: number;
  readonly lazy: number;
  readonly lazyChunks: number;
}

interface LazyChunk {
  readonly module: string;
  readonly size: number;
}

/** Bundles every island together, as the site does, so shared code lands in shared chunks once. */
async function islandWeights(): Promise<{ islands: IslandWeight[]; chunks: LazyChunk[] }> {
  const outdir = join(ROOT, 'node_modules/.cache/spaceguard-bench/islands');
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: Object.values(ISLANDS),
    bundle: true,
    minify: true,
    format: 'esm',
    splitting: true,
    platform: 'browser',
    target: 'es2022',
    outdir,
    write: false,
    metafile: true,
    external: EXTERNAL,
    jsx: 'automatic',
    loader: { '.png': 'file', '.svg': 'file' },
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'silent',
  });
  const sizes = new Map<string, number>();
  for (const file of result.outputFiles) sizes.set(relative(ROOT, file.path), gzipBytes(file.contents));
  const outputs: Metafile['outputs'] = result.metafile.outputs;

  // Walks imports from an output: static ones are the island's own code, dynamic ones what it loads later.
  const closure = (start: string, kind: 'import-statement' | 'dynamic-import'): Set<string> => {
    const seen = new Set<string>();
    const queue = [start];
    while (queue.length > 0) {
      const next = queue.pop() as string;
      for (const item of outputs[next]?.imports ?? []) {
        if (item.external || item.kind !== kind || seen.has(item.path)) continue;
        seen.add(item.path);
        queue.push(item.path);
      }
    }
    return seen;
  };

  // Lazy chunks by the module they were split for; shared pieces they import statically come along.
  const lazyEntries = new Map<string, string>();
  for (const [path, output] of Object.entries(outputs)) {
    if (output.entryPoint && !Object.values(ISLANDS).includes(output.entryPoint)) {
      lazyEntries.set(output.entryPoint.replace(/^node_modules\//, ''), path);
    }
  }
  const sum = (paths: Iterable<string>): number =>
    [...paths].reduce((total, path) => total + (sizes.get(path) ?? 0), 0);

  const islands = Object.entries(ISLANDS).map(([name, source]) => {
    const entry = Object.keys(outputs).find((path) => outputs[path]?.entryPoint === source);
    if (!entry) throw new Error(`no output for ${source}`);
    const own = new Set([entry, ...closure(entry, 'import-statement')]);
    const lazy = new Set<string>();
    for (const module of LAZY_ON_FIRST_USE[name] ?? []) {
      const chunk = lazyEntries.get(module);
      if (!chunk) throw new Error(`${name}: no lazy chunk for ${module}`);
      for (const path of [chunk, ...closure(chunk, 'import-statement')]) if (!own.has(path)) lazy.add(path);
    }
    const cssBundle = outputs[entry]?.cssBundle;
    return {
      name,
      own: sum([...own].filter((path) => path.endsWith('.js'))),
      css: cssBundle ? (sizes.get(cssBundle) ?? 0) : 0,
      lazy: sum(lazy),
      lazyChunks: lazy.size,
    };
  });
  const chunks = [...lazyEntries].map(([module, path]) => ({ module, size: sizes.get(path) ?? 0 }));
  chunks.sort((a, b) => b.size - a.size);
  return { islands, chunks };
}

/** A deterministic JSON document of about 5 MB: security events with nested request data. */
export function generateDocument(targetBytes = 5 * 1024 * 1024): {
  readonly events: unknown[];
  readonly meta: unknown;
} {
  const events: unknown[] = [];
  const doc = { meta: { source: 'bench', generated: '2026-01-01T00:00:00Z', version: 1 }, events };
  let bytes = 0;
  for (let index = 0; bytes < targetBytes; index += 1) {
    const event = {
      id: `evt-${index.toString(36).padStart(8, '0')}`,
      timestamp: 1_767_225_600_000 + index * 1000,
      action: index % 3 === 0 ? 'blocked' : 'logged',
      severity: ['low', 'medium', 'high', 'critical'][index % 4],
      client: { ip: `198.51.${index % 256}.${(index * 7) % 256}`, country: ['ID', 'DE', 'US', 'BR'][index % 4] },
      request: {
        method: index % 5 === 0 ? 'POST' : 'GET',
        uri: `/api/items/${index}?q=${'a'.repeat(index % 40)}`,
        headers: { 'user-agent': 'Mozilla/5.0 (bench)', accept: '*/*' },
      },
      rules: [942100 + (index % 50), 941100 + (index % 30)],
      matched: index % 7 === 0,
      note: null,
    };
    bytes += JSON.stringify(event).length + 1;
    events.push(event);
  }
  return doc;
}

/** Bundles the viewer for Node, then renders it in jsdom: first render, and opening the largest node. */
async function jsonViewerTimings(): Promise<{
  bytes: number;
  nodes: number;
  render: number;
  expand: number;
  ssr: number;
  mode: string;
}> {
  // Production React, as the site ships, unless the caller chose otherwise before React was first loaded.
  process.env.NODE_ENV ??= 'production';
  const dir = join(ROOT, 'node_modules/.cache/spaceguard-bench');
  await mkdir(dir, { recursive: true });
  const file = join(dir, 'json-viewer.mjs');
  const bundled = await build({
    absWorkingDir: ROOT,
    entryPoints: [ISLANDS.JsonViewer as string],
    bundle: true,
    format: 'esm',
    platform: 'node',
    write: false,
    external: EXTERNAL,
    jsx: 'automatic',
    loader: { '.css': 'empty' },
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'silent',
  });
  await writeFile(file, bundled.outputFiles[0]?.contents ?? new Uint8Array());

  // jsdom ships no types; this is the part of its API used here.
  const jsdom = 'jsdom';
  const { JSDOM } = (await import(jsdom)) as {
    JSDOM: new (html: string, options: { pretendToBeVisual: boolean }) => { window: Window & typeof globalThis };
  };
  const dom = new JSDOM('<!doctype html><html><body><div id="root"></div></body></html>', { pretendToBeVisual: true });
  const globals: Record<string, unknown> = {
    window: dom.window,
    document: dom.window.document,
    HTMLElement: dom.window.HTMLElement,
    Element: dom.window.Element,
    Node: dom.window.Node,
    Event: dom.window.Event,
    MouseEvent: dom.window.MouseEvent,
    getComputedStyle: dom.window.getComputedStyle.bind(dom.window),
  };
  const previous = new Map<string, PropertyDescriptor | undefined>();
  for (const [key, value] of Object.entries(globals)) {
    previous.set(key, Object.getOwnPropertyDescriptor(globalThis, key));
    Object.defineProperty(globalThis, key, { value, configurable: true, writable: true });
  }
  try {
    const { createElement } = await import('react');
    const { flushSync } = await import('react-dom');
    const { createRoot } = await import('react-dom/client');
    const { renderToString } = await import('react-dom/server');
    const { JsonViewer } = (await import(
      pathToFileURL(file).href
    )) as typeof import('../src/islands/json-viewer/JsonViewer.tsx');

    const doc = generateDocument();
    const text = JSON.stringify(doc);
    const data: unknown = JSON.parse(text);

    const ssr = median(
      Array.from({ length: RUNS }, () => {
        const start = performance.now();
        renderToString(createElement(JsonViewer, { data }));
        return performance.now() - start;
      }),
    );

    const container = dom.window.document.getElementById('root') as HTMLElement;
    const root = createRoot(container);
    const started = performance.now();
    flushSync(() => root.render(createElement(JsonViewer, { data })));
    const render = performance.now() - started;

    // The largest node is the events array; its toggle is clicked as a user would.
    const toggle = [...container.querySelectorAll('.sg-json__item')]
      .find((row) => row.querySelector('.sg-json__key')?.textContent === 'events')
      ?.querySelector<HTMLButtonElement>('.sg-json__toggle');
    if (!toggle) throw new Error('the events node has no toggle');
    // Open, count, close: the median of several openings.
    let nodes = 0;
    const openings: number[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      const start = performance.now();
      flushSync(() => toggle.click());
      openings.push(performance.now() - start);
      nodes = container.querySelectorAll('[role="treeitem"]').length;
      flushSync(() => toggle.click());
    }
    const expand = median(openings);
    root.unmount();
    // Let React's scheduler finish before the DOM globals go away.
    await new Promise((resolve) => setTimeout(resolve, 50));
    return { bytes: text.length, nodes, render, expand, ssr, mode: process.env.NODE_ENV ?? 'development' };
  } finally {
    for (const [key, descriptor] of previous) {
      if (descriptor) Object.defineProperty(globalThis, key, descriptor);
      else Reflect.deleteProperty(globalThis, key);
    }
    dom.window.close();
  }
}

const RUNS = 5;

const KB = (bytes: number): string => `${kb(bytes)} KB`;
const MS = (value: number): string => `${ms(value)} ms`;

/** The islands section of BENCHMARKS.md. */
export async function benchIslands(): Promise<string> {
  const { islands: weights, chunks } = await islandWeights();
  const timings = await jsonViewerTimings();
  const lines = [
    '## Islands',
    '',
    'Each island bundled with esbuild (minified ESM, code splitting, React external), sizes gzip -9. "Own" is what',
    'the page loads with the island; "lazy" is what it imports on first use (Highcharts core and modules, Leaflet).',
    '',
    ...table(
      ['island', 'own JS (gzip)', 'own CSS (gzip)', 'loaded on first use (gzip)', 'chunks'],
      weights.map((island) => [island.name, KB(island.own), KB(island.css), KB(island.lazy), island.lazyChunks]),
      [1, 2, 3, 4],
    ),
    '',
    'Lazy entry chunks, each loaded once per page however many islands ask (code they share, such as the Highcharts',
    'core, sits in shared chunks counted in the totals above):',
    '',
    ...table(
      ['module', 'gzip'],
      chunks.map((chunk) => [chunk.module, KB(chunk.size)]),
      [1],
    ),
    '',
    `JSON viewer on a generated document of ${(timings.bytes / 1024 / 1024).toFixed(2)} MB (jsdom, React in ${timings.mode} mode):`,
    '',
    ...table(
      ['step', 'time'],
      [
        [`server render (react-dom/server, median of ${RUNS})`, MS(timings.ssr)],
        ['first client render', MS(timings.render)],
        [
          `expand the largest node (${timings.nodes - 3} of its children rendered, the rest behind "Show more"; median of ${RUNS})`,
          MS(timings.expand),
        ],
      ],
      [1],
    ),
    '',
  ];
  return lines.join('\n');
}
