/** Bytes each route ships: HTML, CSS and JS, raw and gzip, following every island chunk's static imports. */
import { gzipBytes } from './lib/sizes.ts';

export interface PageWeight {
  readonly path: string;
  readonly html: readonly [number, number];
  readonly css: readonly [number, number];
  readonly js: readonly [number, number];
  /** The inline boot script alone, gzip. */
  readonly inlineJsGzip: number;
  /** Whether any island (and so any JS file) is loaded. */
  readonly islands: number;
  /** Critical HTML + CSS (inline styles included), gzip. */
  readonly criticalGzip: number;
}

const size = (text: string): [number, number] => [Buffer.byteLength(text), gzipBytes(text)];

/** Fetches a page and everything it loads eagerly or on hydration, and measures it. */
export async function weighPage(base: string, path: string): Promise<PageWeight> {
  const html = await (await fetch(base + path)).text();
  const inlineScripts = [...html.matchAll(/<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1] ?? '');
  const inlineStyles = [...html.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/g)].map((m) => m[1] ?? '');
  const cssLinks = [...html.matchAll(/<link[^>]+rel="stylesheet"[^>]+href="([^"]+)"/g)].map((m) => m[1] ?? '');
  const entries = new Set<string>();
  for (const m of html.matchAll(/(?:<script[^>]+src|component-url|renderer-url|before-hydration-url)="([^"]+)"/g)) {
    if (m[1]) entries.add(new URL(m[1], base + path).pathname);
  }
  // Follow static imports of every chunk (not dynamic import(), which is lazy).
  const seen = new Map<string, string>();
  const queue = [...entries];
  while (queue.length > 0) {
    const url = queue.shift() as string;
    if (seen.has(url)) continue;
    const code = await (await fetch(base + url)).text();
    seen.set(url, code);
    for (const m of code.matchAll(/(?:from|import)\s*"(\.{1,2}\/[^"]+\.js)"/g)) {
      if (m[1]) queue.push(new URL(m[1], base + url).pathname);
    }
  }
  let linkedCss = '';
  for (const href of cssLinks) linkedCss += await (await fetch(new URL(href, base + path))).text();
  const cssText = inlineStyles.join('\n') + linkedCss;
  const jsText = inlineScripts.join('\n') + [...seen.values()].join('\n');
  return {
    path,
    html: size(html),
    css: size(cssText),
    js: size(jsText),
    inlineJsGzip: size(inlineScripts.join('\n'))[1],
    islands: (html.match(/<astro-island/g) ?? []).length,
    criticalGzip: size(html + linkedCss)[1],
  };
}
