/**
 * `npm run crs-regression`: the OWASP CRS 3.3.4 regression corpus against Debian's stock CRS set-up and against the
 * configuration Spaceguard compiles. Prints `stock P/T; spaceguard P/T; differ N`; with `--report FILE` (or
 * `CRS_REGRESSION_REPORT`) writes the failures and the differences as Markdown.
 */
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { relative, resolve } from 'node:path';
import { causeOf, renderReport } from './report.ts';
import { corpusDir, runCorpus, summaryLine } from './run-corpus.ts';

const dir = resolve(process.env.CRS_TESTS_DIR || corpusDir);
if (!existsSync(dir)) {
  console.error(
    `No CRS regression tests at ${dir}: CRS_TESTS_DIR names a folder of FTW YAML files, or leave it unset.`,
  );
  process.exit(2);
}
const reportIndex = process.argv.indexOf('--report');
const reportPath = reportIndex > 0 ? process.argv[reportIndex + 1] : process.env.CRS_REGRESSION_REPORT;

let last = 0;
const run = await runCorpus(dir, (kind, done, total) => {
  if (kind === 'stock' && (done - last >= 250 || done === total)) {
    last = done;
    console.error(`… ${done}/${total}`);
  }
});
console.log(summaryLine(run));
for (const title of run.differ) {
  const stock = run.stock.find((result) => result.title === title);
  console.log(
    `  ${title}: stock ${stock?.passed ? 'passes' : 'fails'}, spaceguard ${stock?.passed ? 'fails' : 'passes'} (${causeOf(title)?.name ?? 'unexplained'})`,
  );
}
if (reportPath) {
  await writeFile(reportPath, renderReport(run, { dir: relative(process.cwd(), dir) }));
  console.error(`report written to ${reportPath}`);
}
