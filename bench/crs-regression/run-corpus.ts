/**
 * Runs a folder of CRS regression tests against the stock and the Spaceguard WAF side by side and compares them.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadTests } from './ftw.ts';
import { runTests, type TestResult } from './runner.ts';
import { startUpstream, startWaf, type WafKind } from './wafs.ts';

/** The vendored OWASP CRS 3.3.4 regression tests (`corpus/README.md`). */
export const corpusDir = join(import.meta.dirname, 'corpus', 'tests');

/** Both runs' results, test by test in corpus order, and how long it took. */
export type CorpusRun = {
  stock: TestResult[];
  spaceguard: TestResult[];
  /** Titles whose pass/fail differs between the two. */
  differ: string[];
  seconds: number;
};

/** `stock P/T; spaceguard P/T; differ N`. */
export function summaryLine(run: CorpusRun): string {
  const figure = (results: TestResult[]) => `${results.filter((r) => r.passed).length}/${results.length}`;
  return `stock ${figure(run.stock)}; spaceguard ${figure(run.spaceguard)}; differ ${run.differ.length}`;
}

/**
 * Runs every test under `dir` (or the files named in `only`) on both WAFs (in parallel, each one request at a time);
 * `progress` hears counts.
 */
export async function runCorpus(
  dir: string,
  progress: (kind: WafKind, done: number, total: number) => void = () => {},
  only?: readonly string[],
): Promise<CorpusRun> {
  const started = performance.now();
  const tests = loadTests(dir, only);
  const upstream = await startUpstream();
  const work = await mkdtemp(join(tmpdir(), 'spaceguard-crs-regression-'));
  const wafs: { stop: () => Promise<void> }[] = [];
  try {
    const runOne = async (kind: WafKind) => {
      const waf = await startWaf(kind, join(work, kind), upstream.port);
      wafs.push(waf);
      let done = 0;
      return runTests(waf, tests, () => progress(kind, ++done, tests.length));
    };
    const [stock, spaceguard] = await Promise.all([runOne('stock'), runOne('spaceguard')]);
    const differ = stock.filter((result, i) => result.passed !== spaceguard[i]?.passed).map((result) => result.title);
    return { stock, spaceguard, differ, seconds: (performance.now() - started) / 1000 };
  } finally {
    for (const waf of wafs) await waf.stop();
    await upstream.close();
    if (!process.env.CRS_REGRESSION_KEEP) await rm(work, { recursive: true, force: true });
    else console.error(`kept ${work}`);
  }
}
