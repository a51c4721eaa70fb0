/**
 * JavaScript before interaction, as a browser sees it: every script a page fetches from the moment it is
 * opened until it is settled after the whole page has been scrolled once (so `client:visible` islands hydrate and
 * whatever loads because it became visible loads), plus the page's inline scripts; each file gzipped at level 9 on
 * its own, as it travels, and summed. A page that moves on at once is weighed until it does (the page it opens is
 * weighed as its own route). The page-budget e2e test and `node bench/run.ts site` both count this way.
 *
 * Chart code (Highcharts, its modules and the chart wrapper that `LazyChart` imports when a chart is drawn) is
 * counted apart: the build names those chunks `chart-…` (astro.config.mjs), and a page that needs one of them before
 * it draws a chart (a static import from any other chunk) is reported, so the split cannot hide eager chart code.
 */
import type { Frame, Page, Request } from '@playwright/test';
import { gzipBytes } from './lib/sizes.ts';

/** A chunk of chart code, as the build names it (see `chunkFileNames` in astro.config.mjs). */
export const CHART_CHUNK = /\/_astro\/chart-[^/]+\.js$/;

export interface ScriptFile {
  /** The script's path, or `inline #n` for the page's n-th inline script. */
  readonly name: string;
  /** Bytes after gzip at level 9, this file alone. */
  readonly gzip: number;
  /** Chart code, loaded when a chart is drawn; not part of `total`. */
  readonly chart: boolean;
}

export interface PageScripts {
  readonly files: readonly ScriptFile[];
  /** Sum of every file's gzip bytes, chart code left out. */
  readonly total: number;
  /** Sum of the chart code's gzip bytes. */
  readonly chart: number;
  /** Chunks (not chart code) that import chart code statically: it would load with the page, not with a chart. */
  readonly eagerChartImports: readonly string[];
  /** The site's own files (`/_astro/…`) the page asked for and did not get: code that failed to load is not weighed. */
  readonly failed: readonly string[];
}

/** Counts the page's requests in flight, and resolves `quiet()` once none has been for 500 ms (`networkidle`). */
function trackRequests(page: Page) {
  let inFlight = 0;
  let changed: () => void = () => {};
  const started = (): void => {
    inFlight += 1;
    changed();
  };
  const ended = (): void => {
    inFlight -= 1;
    changed();
  };
  page.on('request', started);
  page.on('requestfinished', ended);
  page.on('requestfailed', ended);
  return {
    async quiet(): Promise<void> {
      for (;;) {
        const calm = await new Promise<boolean>((resolve) => {
          const timer = setTimeout(() => resolve(inFlight === 0), 500);
          changed = () => {
            clearTimeout(timer);
            resolve(false);
          };
        });
        changed = () => {};
        if (calm) return;
      }
    },
    stop(): void {
      page.off('request', started);
      page.off('requestfinished', ended);
      page.off('requestfailed', ended);
    },
  };
}

/** Scrolls the document from top to bottom a screen at a time, letting intersection observers see each screen. */
async function scrollThrough(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const frame = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    const root = document.scrollingElement ?? document.documentElement;
    for (let top = 0; top < root.scrollHeight; top += Math.max(1, root.clientHeight)) {
      root.scrollTop = top;
      await frame();
    }
    root.scrollTop = root.scrollHeight;
    await frame();
  });
}

/** Opens `path` in `page` (signed in or not, as the page's context is) and weighs its JavaScript before interaction. */
export async function weighScripts(page: Page, path: string): Promise<PageScripts> {
  // Every script the page's own document requests; the bytes are fetched again afterwards, as a navigation discards
  // a response's body. A page that moves on at once (the signed-in landing page opens the last used space) is
  // weighed until it does: the page it opens is a route of its own, weighed on its own.
  const urls = new Set<string>();
  const failed: string[] = [];
  const opened = new URL(path, 'http://localhost').pathname;
  let movedOn = false;
  const onNavigated = (frame: Frame): void => {
    if (frame === page.mainFrame() && new URL(frame.url()).pathname !== opened) movedOn = true;
  };
  const onRequest = (request: Request): void => {
    if (!movedOn && request.resourceType() === 'script') urls.add(request.url());
  };
  const onFinished = async (request: Request): Promise<void> => {
    const response = await request.response();
    if (new URL(request.url()).pathname.startsWith('/_astro/') && (response?.status() ?? 0) >= 400)
      failed.push(`${request.url()} answered ${response?.status()}`);
  };
  const onFailed = (request: Request): void => {
    if (new URL(request.url()).pathname.startsWith('/_astro/'))
      failed.push(`${request.url()}: ${request.failure()?.errorText}`);
  };
  page.on('framenavigated', onNavigated);
  page.on('request', onRequest);
  page.on('requestfinished', onFinished);
  page.on('requestfailed', onFailed);
  const requests = trackRequests(page);
  try {
    await page.goto(path);
    await requests.quiet();
    await scrollThrough(page);
    // Every island on screen has hydrated (Astro drops `ssr` when it has) and every chart is drawn or has said why
    // not, then the network has gone quiet.
    await page.waitForFunction(() =>
      [...document.querySelectorAll('astro-island[ssr]')].every((island) => island.getClientRects().length === 0),
    );
    await page.waitForFunction(() =>
      [...document.querySelectorAll('figure.sg-chart')].every((chart) =>
        chart.querySelector('.highcharts-container, .sg-chart__status'),
      ),
    );
    await requests.quiet();
  } finally {
    requests.stop();
    page.off('framenavigated', onNavigated);
    page.off('request', onRequest);
    page.off('requestfinished', onFinished);
    page.off('requestfailed', onFailed);
  }
  const files: ScriptFile[] = [];
  const code = new Map<string, string>();
  for (const url of urls) {
    const response = await page.request.get(url);
    if (!response.ok()) throw new Error(`${url} answered ${response.status()}`);
    const body = await response.body();
    const name = new URL(url).pathname;
    code.set(name, body.toString('utf8'));
    files.push({ name, gzip: gzipBytes(body), chart: CHART_CHUNK.test(name) });
  }
  const inline = await page.evaluate(() =>
    [...document.querySelectorAll('script:not([src])')]
      .filter((script) => ['', 'module', 'text/javascript'].includes(script.getAttribute('type') ?? ''))
      .map((script) => script.textContent ?? ''),
  );
  inline.forEach((text, index) => {
    files.push({ name: `inline #${index + 1}`, gzip: gzipBytes(text), chart: false });
  });
  const eagerChartImports = [...code]
    .filter(([name, text]) => !CHART_CHUNK.test(name) && /(?:from\s*|import\s*)"[^"]*\/chart-[^"/]+\.js"/.test(text))
    .map(([name]) => name);
  const sum = (chart: boolean) =>
    files.filter((file) => file.chart === chart).reduce((all, file) => all + file.gzip, 0);
  return { files, total: sum(false), chart: sum(true), eagerChartImports, failed };
}
