/** The Markdown report of a corpus run: figures, every test that does not pass with its cause, the differences. */
import { cpus, hostname } from 'node:os';
import { type CorpusRun, summaryLine } from './run-corpus.ts';
import type { TestResult } from './runner.ts';

/** A known limit of nginx + libmodsecurity3 (or of the test itself) and the tests it fails, by title. */
type Cause = { name: string; text: string; titles: readonly string[] };

const range = (prefix: string, numbers: readonly number[]) => numbers.map((n) => `${prefix}-${n}`);

/** Why tests fail on this engine, measured on the full corpus (see the report for the evidence of each). */
export const causes: readonly Cause[] = [
  {
    name: 'XML body in REQUEST_BODY',
    text:
      'libmodsecurity3 keeps the raw XML body in `REQUEST_BODY` even when the XML body processor parses it (ModSecurity 2 ' +
      'leaves it out), so the Java rules that read `REQUEST_BODY` match the harmless `java.lang.Runtime` element names ' +
      'these `no_log_contains` tests send with `Content-Type: application/xml`.',
    titles: [
      ...range('944100', [11, 12, 15, 16]),
      ...range('944110', [11, 12, 15, 16]),
      ...range('944120', [5, 6, 22, 23, 39, 40, 56, 57, 73, 74, 90, 91, 107, 108, 124, 125]),
      ...range('944210', [5, 6, 22, 23, 39, 40]),
    ],
  },
  {
    name: 'request line refused by nginx',
    text:
      'nginx answers the request line itself (400 for `CONNECT` and a method starting with `|`, 400 for a URI without ' +
      'a leading `/`, 505 for `HTTP/3.0`) before ModSecurity runs, so no rule logs.',
    titles: ['920100-4', '920100-6', '920100-14', '920430-8', '933160-21', '942500-1'],
  },
  {
    name: '`\\\\` read as two backslashes',
    text:
      'libmodsecurity3 keeps both backslashes of `\\\\\\\\` inside a quoted rule (Apache reads one escaped backslash), so ' +
      'the regexes of 920460 and 941330 look for two backslashes and miss (or, in 920460-4, match) the single ones sent.',
    titles: ['920460-1', '920460-2', '920460-3', '920460-4', '941330-1'],
  },
  {
    name: 'Apache-specific status',
    text:
      'The test expects the status Apache answers for a malformed request (400/403/404: a `:port` in the path, `%00` in ' +
      'Host, `%FF` in the path, bare-LF line ends); nginx accepts it and, in DetectionOnly, the upstream answers 200. ' +
      'The rules themselves are not what these tests check.',
    titles: ['920100-8', '920270-4', '920272-5', '932100-3'],
  },
  {
    name: '1 MB body limit',
    text:
      "nginx's `client_max_body_size` (1 MB by default) answers 413 to the 10 MB upload at once; the test expects the " +
      'connection to fail as Apache does.',
    titles: ['920400-1'],
  },
  {
    name: 'header with `_` dropped by nginx',
    text:
      "nginx's default drops headers whose name holds `_` (`X_Filename`) before ModSecurity sees them. Spaceguard's " +
      '`server.conf` sets `underscores_in_headers on; ignore_invalid_headers off`, and the stock run gets the same two ' +
      "lines so the runs differ only in their ModSecurity configuration; with nginx's default, stock fails these 6 " +
      '(2009/2061).',
    titles: range('933110', [3, 13, 14, 20, 21, 22]),
  },
];

/** The cause of a failing test, or null when it is not a known one (then the runner or the WAF needs a look). */
export function causeOf(title: string): Cause | null {
  return causes.find((cause) => cause.titles.includes(title)) ?? null;
}

const cell = (text: string) => text.replaceAll('|', '\\|');

function failures(results: readonly TestResult[]): TestResult[] {
  return results.filter((result) => !result.passed);
}

/** Renders the report; `dir` is named in it. */
export function renderReport(run: CorpusRun, context: { dir: string }): string {
  const failedTitles = new Set([...failures(run.stock), ...failures(run.spaceguard)].map((r) => r.title));
  const rows = run.stock
    .map((stock, i) => ({ stock, spaceguard: run.spaceguard[i] as TestResult }))
    .filter(({ stock }) => failedTitles.has(stock.title));
  const counts = causes.map((cause) => {
    const inStock = failures(run.stock).filter((r) => cause.titles.includes(r.title)).length;
    const inSpaceguard = failures(run.spaceguard).filter((r) => cause.titles.includes(r.title)).length;
    return `| ${cell(cause.name)} | ${inStock} | ${inSpaceguard} | ${cell(cause.text)} |`;
  });
  const unknown = [...failedTitles].filter((title) => causeOf(title) === null);
  const differ = rows.filter(({ stock, spaceguard }) => stock.passed !== spaceguard.passed);
  return [
    '# CRS regression corpus: results',
    '',
    '<!-- Written by `npm run crs-regression -- --report bench/crs-regression/REPORT.md`; causes come from report.ts. -->',
    '',
    `**\`${summaryLine(run)}\`**`,
    '',
    `Run ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on \`${hostname()}\` (${cpus().length} cores, ` +
      `${cpus()[0]?.model ?? 'unknown CPU'}), both configurations side by side in ${Math.round(run.seconds)} s, ` +
      `${run.stock.length} tests from \`${context.dir}\` (files whose \`meta.enabled\` is false skipped, as FTW does).`,
    '',
    'Set-up: Debian 12 nginx 1.22 + libmodsecurity3 3.0.9 + CRS 3.3.4, each configuration on its own private nginx ' +
      'prefix in front of one local upstream that answers 200; DetectionOnly, paranoia level 4, the CRS CI settings ' +
      '(`tx.crs_validate_utf8_encoding=1`, argument limits 100/400/64000/255, file sizes 64100/65535, rule 910000 off), ' +
      "and a marker rule (id 4299999) whose log line brackets every stage's lines in nginx's error log (level info).",
    '',
    '- **stock**: `/etc/nginx/modsecurity.conf` (its `unicode.mapping`, audit log and temporary paths moved into the ' +
      'prefix), `/etc/modsecurity/crs/crs-setup.conf`, the CI settings with `tx.paranoia_level=4`, the CRS rules as ' +
      '`owasp-crs.load` names them; a `server { modsecurity on; location / { proxy_pass … } }` with the compiled ' +
      "server's `underscores_in_headers on; ignore_invalid_headers off`.",
    '- **spaceguard**: `compileFirewall` (detect, paranoia 4, default thresholds, nothing excluded) laid out by ' +
      "`layOutPrefix` as the host does; the CI settings and the marker appended to the host's `host.conf`.",
    '',
    '## Failures by cause',
    '',
    '| cause | stock | spaceguard | why |',
    '| --- | --- | --- | --- |',
    ...counts,
    ...(unknown.length > 0 ? [`| **unexplained** | | | ${unknown.join(', ')} |`] : []),
    '',
    '## Tests that differ between the two',
    '',
    ...(differ.length === 0
      ? ['None.']
      : [
          '| test | stock | spaceguard | cause |',
          '| --- | --- | --- | --- |',
          ...differ.map(
            ({ stock, spaceguard }) =>
              `| ${stock.title} | ${stock.passed ? 'pass' : 'fail'} | ${spaceguard.passed ? 'pass' : 'fail'} | ` +
              `${causeOf(stock.title)?.name ?? 'unexplained'} |`,
          ),
        ]),
    '',
    ...(differ.length > 0 && differ.every(({ stock }) => causeOf(stock.title)?.name.startsWith('header with `_`'))
      ? [
          'Every difference is Spaceguard passing where the stock set-up fails, and it comes from nginx, not from the ' +
            'ModSecurity rules: the compiled `server.conf` passes headers with `_` on to the upstream (applications use ' +
            'them) and so ModSecurity inspects them, where stock nginx drops them (measured: with the same two lines in ' +
            'the stock server, 933110.yaml gives 23/23 on both). The compiled `modsecurity.conf` ' +
            'gives exactly the stock results on every other test, so the compiler is left as it is: equal figures ' +
            'here would mean dropping those headers again.',
          '',
        ]
      : []),
    '## Every test that does not pass',
    '',
    '| test | file | stock | spaceguard | cause |',
    '| --- | --- | --- | --- | --- |',
    ...rows.map(
      ({ stock, spaceguard }) =>
        `| ${stock.title} | ${stock.file} | ${cell(stock.reason ?? 'pass')} | ${cell(spaceguard.reason ?? 'pass')} | ` +
        `${causeOf(stock.title)?.name ?? 'unexplained'} |`,
    ),
    '',
  ].join('\n');
}
