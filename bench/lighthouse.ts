/** Lighthouse (mobile, the package's default settings) on Debian's Chromium against the locally served site. */
import { launch } from 'chrome-launcher';
import lighthouse from 'lighthouse';

export interface LighthouseScores {
  readonly path: string;
  readonly performance: number;
  readonly accessibility: number;
  readonly bestPractices: number;
  readonly seo: number;
  readonly failing: readonly string[];
}

/** Runs Lighthouse once per path in one headless Chromium, and stops it. */
export async function lighthouseScores(
  base: string,
  paths: readonly string[],
  cookie?: string,
): Promise<LighthouseScores[]> {
  const chrome = await launch({
    chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    chromeFlags: [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
    ],
  });
  const results: LighthouseScores[] = [];
  try {
    for (const path of paths) {
      const run = await lighthouse(base + path, {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
        ...(cookie ? { extraHeaders: { Cookie: cookie } } : {}),
      });
      if (!run) throw new Error(`Lighthouse gave no result for ${path}`);
      const { categories, audits } = run.lhr;
      const score = (id: string): number => Math.round((categories[id]?.score ?? 0) * 100);
      const failing = Object.values(audits)
        .filter((audit) => audit.score !== null && audit.score < 0.9 && audit.scoreDisplayMode !== 'informative')
        .map((audit) => audit.id);
      results.push({
        path,
        performance: score('performance'),
        accessibility: score('accessibility'),
        bestPractices: score('best-practices'),
        seo: score('seo'),
        failing,
      });
    }
  } finally {
    chrome.kill();
  }
  return results;
}
