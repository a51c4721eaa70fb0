// @ts-check
import { readFileSync } from 'node:fs';
import react from '@astrojs/react';
import { defineConfig } from 'astro/config';
import flagAssets from './src/integrations/flag-assets.ts';
import mapAssets from './src/integrations/map-assets.ts';
import spaceguard from './src/integrations/spaceguard.ts';

/**
 * How the browser's code is cut into files. Every file a page fetches is compressed on its own, so forty small shared
 * chunks cost more than the same code in three: the code every island page runs, the code every page
 * that talks to the API runs, and the console's frame each get one chunk; the rest is split by Rolldown as usual.
 */
/**
 * A group's rule: the modules `pattern` names, except stylesheets and the modules that import one. Astro inlines each
 * page's CSS and drops the files, but a group's chunk would still name its own CSS file for lazy imports to preload,
 * and those imports would fail on the missing file.
 * @param {RegExp} pattern
 */
function grouped(pattern) {
  /** @param {string} id */
  const importsCss = (id) => {
    try {
      return /^import\s+['"][^'"]+\.css['"];?$/m.test(readFileSync(id, 'utf8'));
    } catch {
      return false; // A virtual or query-suffixed module: not a source file with CSS imports.
    }
  };
  /** @param {string} id */
  return (id) => pattern.test(id) && !/\.css(?:$|\?)/.test(id) && !importsCss(id);
}

const CHUNK_GROUPS = [
  {
    // React and its DOM renderer, Astro's React client, nanostores, the app wrapper and the colour mode toggle: any
    // island.
    name: 'base',
    priority: 3,
    test: grouped(
      /node_modules[\\/](?:react|react-dom|scheduler|@astrojs[\\/]react|nanostores|@nanostores[\\/](?:react|persistent))[\\/]|src[\\/]lib[\\/](?:config|color-mode|bots|error-page|captcha|app-start)\.ts$|src[\\/]stores[\\/](?:config|theme|app)\.ts$|src[\\/]islands[\\/](?:app|theme)[\\/]/,
    ),
  },
  {
    // The API client, the query cache, the stores, the contract's constants and the shared pieces that ten or more
    // islands use.
    name: 'shell',
    priority: 2,
    tags: /** @type {['$initial']} */ (['$initial']),
    minShareCount: 10,
    test: grouped(
      /preload-helper|node_modules[\\/](?:nanoevents|@nanostores[\\/]query|hono)[\\/]|src[\\/](?:lib|stores)[\\/]|src[\\/]islands[\\/]shared[\\/]|src[\\/]islands[\\/]charts[\\/](?:LazyChart|Highchart|Highstock|Highmap|accessible)\.|contract[\\/]constants[\\/]/,
    ),
  },
  {
    // The console's frame (rail, menu button, space switch, user menu, past-due banner; each island's own file is
    // left as a one-line re-export of this chunk) and the small pieces most console pages use: the chart frames,
    // relative times and the last answer kept while the next loads.
    name: 'console',
    priority: 1,
    tags: /** @type {['$initial']} */ (['$initial']),
    test: grouped(
      /src[\\/]islands[\\/]console[\\/]|src[\\/]islands[\\/]shared[\\/](?:Drawer|use-signed-in|use-last-data|relative-time)\.|src[\\/]islands[\\/]charts[\\/](?:LazyChart|Highchart|Highstock|Highmap|accessible)\.|src[\\/]stores[\\/]subscription\./,
    ),
  },
];

/**
 * Astro keeps each island's entry file exactly as it is ("exports-only"), so code an island shares only with its own
 * lazy parts cannot stay in the island's file and becomes one more small file. An island needs its own exports kept,
 * nothing more: "allow-extension" keeps them and lets such code stay in the island's file.
 * @type {import('vite').Plugin}
 */
const islandEntries = {
  name: 'spaceguard:island-entries',
  applyToEnvironment: (environment) => environment.name === 'client',
  options: (options) => ({ ...options, preserveEntrySignatures: 'allow-extension' }),
};

/**
 * The typed API client (`hono/client`) imports Hono's whole cookie module (about 1 KB gzip on every page) to write a
 * `cookie` argument into a Cookie header; the browser sends its own cookies and no island passes one. In the
 * browser's build the client gets the one function it calls, `serialize(name, value)`, as Hono writes it without
 * options: the name checked, the value URI-encoded.
 * @type {import('vite').Plugin}
 */
const browserCookieSerialize = {
  name: 'spaceguard:browser-cookie-serialize',
  enforce: 'pre',
  applyToEnvironment: (environment) => environment.name === 'client',
  resolveId(source, importer) {
    if (source === '../utils/cookie.js' && importer && /[\\/]hono[\\/]dist[\\/]client[\\/]/.test(importer)) {
      return '\0spaceguard:hono-client-cookie';
    }
    return null;
  },
  load(id) {
    if (id !== '\0spaceguard:hono-client-cookie') return null;
    return [
      "const validName = /^[\\w!#$%&'*.^`|~+-]+$/;",
      'export function serialize(name, value) {',
      "  if (!validName.test(name)) throw new Error('Invalid cookie name');",
      "  return name + '=' + encodeURIComponent(value);",
      '}',
    ].join('\n');
  },
};

/**
 * Chart code: Highcharts, its modules, its React binding, the chart wrapper that LazyChart imports to draw, and the
 * event log's histogram with its options, which the event log imports only when the histogram draws.
 */
const CHART_CODE =
  /[\\/]node_modules[\\/]highcharts(?:-react-official)?[\\/]|[\\/]src[\\/]islands[\\/](?:charts[\\/]Chart|siem[\\/]EventHistogram)\.tsx$/;

// Static output: one HTML shell per route of the seed, React islands hydrated on the client.
export default defineConfig({
  output: 'static',
  trailingSlash: 'ignore',
  build: { format: 'directory', inlineStylesheets: 'always' },
  server: { host: '127.0.0.1', port: 4321 },
  integrations: [react(), mapAssets(), flagAssets(), spaceguard()],
  vite: {
    plugins: [islandEntries, browserCookieSerialize],
    environments: {
      client: {
        build: {
          rolldownOptions: {
            output: {
              codeSplitting: { groups: CHUNK_GROUPS },
              // Shared chunks are named by their hash alone (each import line repeats the name, and a page's scripts are
              // weighed file by file), except that a chunk of chart code is `chart-…`: the page budget counts what a
              // page needs to become interactive and the charts it draws apart (bench/page-scripts.ts). Islands'
              // own files keep Astro's names.
              chunkFileNames: (chunk) =>
                `_astro/${chunk.moduleIds.some((id) => CHART_CODE.test(id)) ? 'chart-' : ''}[hash].js`,
            },
          },
        },
      },
    },
  },
});
