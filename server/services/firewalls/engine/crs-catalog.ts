import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type CrsApplication, crsApplications } from '../../../../contract/constants/firewalls.ts';

/** One CRS rule file (a "group" in the console): `REQUEST-942-APPLICATION-ATTACK-SQLI` and what it is about. */
export type CrsGroup = {
  /** The file name without `.conf`, as settings name it in `managedRules.disabledGroups`. */
  name: string;
  /** Readable name for the console ("SQL injection"). */
  title: string;
  /** Path inside the CRS folder (`rules/REQUEST-942-APPLICATION-ATTACK-SQLI.conf`). */
  file: string;
  /** Request or response rules. */
  kind: 'request' | 'response';
  /** False for the files that hold the CRS together (initialisation, blocking evaluation, correlation, exclusion packages): never left out. */
  optional: boolean;
  /** The application whose exclusion package this file is, turned on by `managedRules.applications`. */
  application?: CrsApplication;
  /** Rule ids defined in the file, ascending. */
  ruleIds: number[];
};

/** What the installed CRS offers: read once, used to compile, to list groups and to refuse unknown rule ids. */
export type CrsCatalog = {
  /** `3.3.4`, from the CRS's `SecComponentSignature`. */
  version: string;
  /** `334`: the value the CRS expects in `tx.crs_setup_version`. */
  setupVersion: number;
  /** Rule files in the order the CRS loads them (by name). */
  groups: CrsGroup[];
  /** Group name of each rule id. */
  ruleGroup: ReadonlyMap<number, string>;
  /** Every rule id of the installed CRS. */
  ruleIds: ReadonlySet<number>;
  /** Application exclusion packages present in this CRS. */
  applications: CrsApplication[];
};

/** Debian's `modsecurity-crs` location; `CRS_DIR` overrides it. */
export const defaultCrsDir = '/usr/share/modsecurity-crs';

/** Readable names of the CRS 3.x rule files, by their number. */
const titles: Readonly<Record<string, string>> = {
  '901': 'Initialisation',
  '903.9001': 'Drupal exclusions',
  '903.9002': 'WordPress exclusions',
  '903.9003': 'Nextcloud exclusions',
  '903.9004': 'DokuWiki exclusions',
  '903.9005': 'cPanel exclusions',
  '903.9006': 'XenForo exclusions',
  '903.9007': 'phpBB exclusions',
  '903.9008': 'phpMyAdmin exclusions',
  '905': 'Common exceptions',
  '910': 'IP reputation',
  '911': 'Method enforcement',
  '912': 'Denial of service protection',
  '913': 'Scanner detection',
  '920': 'Protocol enforcement',
  '921': 'Protocol attacks',
  '922': 'Multipart attacks',
  '930': 'Local file inclusion',
  '931': 'Remote file inclusion',
  '932': 'Remote code execution',
  '933': 'PHP injection',
  '934': 'Node.js injection',
  '941': 'Cross-site scripting (XSS)',
  '942': 'SQL injection',
  '943': 'Session fixation',
  '944': 'Java attacks',
  '949': 'Inbound blocking evaluation',
  '950': 'Data leakages',
  '951': 'SQL data leakages',
  '952': 'Java data leakages',
  '953': 'PHP data leakages',
  '954': 'IIS data leakages',
  '959': 'Outbound blocking evaluation',
  '980': 'Correlation',
};

/** Files that keep the CRS working: leaving one out would switch scoring or blocking off. */
const requiredNumbers = new Set(['901', '905', '949', '959', '980']);

const fileNamePattern = /^(REQUEST|RESPONSE)-(\d{3}(?:\.\d{4})?)-([A-Z0-9-]+)\.conf$/;

/** Turns `APPLICATION-ATTACK-SQLI` into "Application attack sqli" when the file is not in the table. */
function fallbackTitle(words: string): string {
  const text = words.toLowerCase().replaceAll('-', ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Rule ids declared in a rule file's text (comments left out). */
export function ruleIdsOf(text: string): number[] {
  const ids = new Set<number>();
  const code = text
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('#'))
    .join('\n');
  for (const match of code.matchAll(/(?:^|["',\s])id:'?(\d{1,9})'?/g)) ids.add(Number(match[1]));
  return [...ids].sort((a, b) => a - b);
}

/** Parses the CRS's rule files (name and text of each `rules/*.conf`) into a catalog; pure, so tests feed it real or made-up files. */
export function parseCrsCatalog(files: readonly { name: string; text: string }[]): CrsCatalog {
  const groups: CrsGroup[] = [];
  const ruleGroup = new Map<number, string>();
  let version: string | null = null;
  const sorted = [...files].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const { name, text } of sorted) {
    const match = fileNamePattern.exec(name);
    if (!match) continue;
    const [, kind = 'REQUEST', number = '', words = ''] = match;
    const stem = name.slice(0, -'.conf'.length);
    const signature = /^\s*SecComponentSignature\s+"OWASP_CRS\/(\d+\.\d+\.\d+)"/m.exec(text);
    if (signature?.[1]) version = signature[1];
    const application = number.startsWith('903.')
      ? crsApplications.find((app) => words.toLowerCase().startsWith(`${app}-`))
      : undefined;
    const ruleIds = ruleIdsOf(text);
    for (const id of ruleIds) ruleGroup.set(id, stem);
    groups.push({
      name: stem,
      title: titles[number] ?? fallbackTitle(words.replace(/-EXCLUSION-RULES$/, ' exclusions')),
      file: `rules/${name}`,
      kind: kind === 'RESPONSE' ? 'response' : 'request',
      optional: !requiredNumbers.has(number) && !number.startsWith('903.'),
      ...(application ? { application } : {}),
      ruleIds,
    });
  }
  if (!version) throw new Error('No CRS version found (SecComponentSignature "OWASP_CRS/x.y.z" in the rule files).');
  return {
    version,
    setupVersion: Number(version.replaceAll('.', '')),
    groups,
    ruleGroup,
    ruleIds: new Set(ruleGroup.keys()),
    applications: groups.flatMap((group) => (group.application ? [group.application] : [])),
  };
}

const cache = new Map<string, CrsCatalog>();

/** The installed CRS's catalog, read once per folder (`CRS_DIR` or Debian's `/usr/share/modsecurity-crs`). */
export function loadCrsCatalog(dir: string = process.env.CRS_DIR || defaultCrsDir): CrsCatalog {
  const known = cache.get(dir);
  if (known) return known;
  const rules = join(dir, 'rules');
  const files = readdirSync(rules)
    .filter((name) => name.endsWith('.conf'))
    .map((name) => ({ name, text: readFileSync(join(rules, name), 'utf8') }));
  const catalog = parseCrsCatalog(files);
  cache.set(dir, catalog);
  return catalog;
}
