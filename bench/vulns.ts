/**
 * Vulnerability matching: one space's OSV library of 50 000 records and an inventory of 1 000
 * components, matched by `matchInventory` (server/services/vulns/match/load.ts) on PGlite (on disk, worker thread,
 * as the server opens it). Target: ≤ 2 s.
 *
 * The library is generated (seeded, so every run is the same) in OSV's shapes: five ecosystems (npm 35 %, PyPI
 * 20 %, Maven 20 %, Go 15 %, Debian 10 %), 12 000 packages of which a few popular ones carry many records (the
 * package drawn with a square-skewed index), 1–3 affected entries per record (60/30/10 %; half of the extra entries
 * another branch of the same package), ranges of every shape (introduced 0 + fixed, introduced + fixed,
 * introduced 0 + last_affected, two pairs in one range, several ranges, a GIT range with its versions list), a third
 * of the entries with an explicit `versions` list of 5–40 versions, 3 % of the records withdrawn. The inventory:
 * 1 000 components over the same ecosystems, 40 % of them on packages of the library (popular ones likelier),
 * the rest on packages the library does not know.
 *
 * Timed: the first call (the version parse cache empty), then RUNS calls after one warm-up (p50 / p95), each from the
 * call to the answer (reading the rows and matching); then the two halves apart (`loadAffected`, `matchComponents`).
 *
 * `node bench/run.ts vulns` prints the markdown section. BENCH_VULNS_RECORDS, BENCH_VULNS_COMPONENTS change the
 * sizes. Nothing here is asserted by tests.
 */
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import type { Ecosystem } from '../contract/constants/vulns.ts';
import { type Database, openDatabase } from '../server/db/database.ts';
import { migrate } from '../server/db/migrate.ts';
import { spaces } from '../server/db/schema/spaces.ts';
import { assetComponents, assets, vulnAffected, vulnRefs } from '../server/db/schema/vulns.ts';
import { prng } from '../server/demo/traffic.ts';
import { systemActor } from '../server/services/triage/record.ts';
import { assess } from '../server/services/vulns/assessments/assess.ts';
import type { OsvEvent, OsvRange } from '../server/services/vulns/ecosystems/affected.ts';
import { componentKey, packageKey } from '../server/services/vulns/ecosystems/names.ts';
import { loadAffected, matchInventory } from '../server/services/vulns/match/load.ts';
import { type MatchComponent, matchComponents } from '../server/services/vulns/match/match.ts';
import { tempDir } from './lib/databases.ts';
import { count, loadAverage, ms, table } from './lib/format.ts';
import { p50p95 } from './lib/stats.ts';

const RECORDS = Number(process.env.BENCH_VULNS_RECORDS ?? 50_000);
const COMPONENTS = Number(process.env.BENCH_VULNS_COMPONENTS ?? 1_000);
const PACKAGES = 12_000;
const RUNS = 15;
/** The whole-space assessment: this many assets, each with an inventory of COMPONENTS components. */
const ASSETS = Number(process.env.BENCH_VULNS_ASSETS ?? 10);
const INSERT_BATCH = 1_000;

const progress = (what: string) => console.error(`[vulns] ${what}`);

/** Seeded (server/demo/traffic.ts's mulberry32), so the library is the same on every run. */
const rnd = prng(16);
const int = (n: number) => Math.floor(rnd() * n);
const pick = <T>(items: readonly T[]): T => items[int(items.length)] as T;

const SHARES: readonly [Ecosystem, number][] = [
  ['npm', 0.35],
  ['PyPI', 0.2],
  ['Maven', 0.2],
  ['Go', 0.15],
  ['Debian', 0.1],
];
function ecosystemOf(): Ecosystem {
  let r = rnd();
  for (const [ecosystem, share] of SHARES) {
    r -= share;
    if (r < 0) return ecosystem;
  }
  return 'npm';
}

/** The package's name in its ecosystem's usual form. */
function packageName(ecosystem: Ecosystem, i: number): string {
  switch (ecosystem) {
    case 'npm':
      return i % 5 === 0 ? `@scope${i % 97}/pkg-${i}` : `pkg-${i}`;
    case 'PyPI':
      return `Py_Package.${i}`;
    case 'Maven':
      return `org.example.g${i % 211}:artifact-${i}`;
    case 'Go':
      return `github.com/owner${i % 173}/module-${i}`;
    case 'Debian':
      return `libdeb${i}`;
  }
}

/** A package index, popular ones (small indexes) far likelier. */
const popularPackage = (): number => Math.floor(PACKAGES * rnd() ** 2);

/** A version of the ecosystem at (major, minor, patch), sometimes with the ecosystem's pre-release or suffix. */
function version(ecosystem: Ecosystem, major: number, minor: number, patch: number, decorated = false): string {
  const plain = `${major}.${minor}.${patch}`;
  switch (ecosystem) {
    case 'npm':
      return decorated ? `${plain}-rc.${1 + int(3)}` : plain;
    case 'Go':
      if (decorated) return `${plain}-0.2024${String(100 + int(900)).padStart(4, '0')}120000-abcdef123456`;
      return plain;
    case 'PyPI':
      return decorated ? `${major}.${minor}${pick(['rc1', 'b2', '.post1', '.dev0'])}` : `${major}.${minor}.${patch}`;
    case 'Maven':
      return decorated ? `${plain}${pick(['-SNAPSHOT', '.Final', '-rc1', '-beta-2'])}` : plain;
    case 'Debian':
      return `${decorated ? '1:' : ''}${plain}-${1 + int(4)}${decorated ? '~deb12u1' : ''}`;
  }
}

/** An installed version as an SBOM gives it (Go with its `v`). */
function installed(ecosystem: Ecosystem): string {
  const v = version(ecosystem, int(6), int(20), int(15), rnd() < 0.1);
  return ecosystem === 'Go' ? `v${v}` : v;
}

const at = (ecosystem: Ecosystem, major: number, minor = int(20), patch = int(15)) =>
  version(ecosystem, major, minor, patch, rnd() < 0.15);

/** One affected entry's ranges and versions, in one of OSV's usual shapes. */
function affectedShape(ecosystem: Ecosystem): { ranges: OsvRange[]; versions: string[] } {
  const type = ecosystem === 'Go' ? 'SEMVER' : 'ECOSYSTEM';
  const major = int(6);
  const r = rnd();
  let ranges: OsvRange[];
  if (r < 0.45) ranges = [{ type, events: [{ introduced: '0' }, { fixed: at(ecosystem, major) }] }];
  else if (r < 0.72) {
    ranges = [
      { type, events: [{ introduced: at(ecosystem, major, 0) }, { fixed: at(ecosystem, major, 10 + int(10)) }] },
    ];
  } else if (r < 0.82) ranges = [{ type, events: [{ introduced: '0' }, { last_affected: at(ecosystem, major) }] }];
  else if (r < 0.9) {
    const events: OsvEvent[] = [
      { introduced: at(ecosystem, major, 0) },
      { fixed: at(ecosystem, major, 9) },
      { introduced: at(ecosystem, major + 1, 0) },
      { fixed: at(ecosystem, major + 1, 12) },
    ];
    ranges = [{ type, events }];
  } else if (r < 0.95) {
    ranges = [
      { type, events: [{ introduced: at(ecosystem, major, 0) }, { fixed: at(ecosystem, major, 15) }] },
      { type, events: [{ introduced: at(ecosystem, major + 1, 0) }, { fixed: at(ecosystem, major + 1, 5) }] },
    ];
  } else {
    const git: OsvRange = {
      type: 'GIT',
      repo: 'https://github.com/example/repo',
      events: [{ introduced: 'a'.repeat(40) }, { fixed: 'b'.repeat(40) }],
    };
    return { ranges: [git], versions: Array.from({ length: 3 + int(10) }, () => at(ecosystem, major)) };
  }
  const versions = rnd() < 0.33 ? Array.from({ length: 5 + int(36) }, () => at(ecosystem, major)) : [];
  return { ranges, versions };
}

type LibraryPackage = { ecosystem: Ecosystem; name: string };
type Seeded = {
  spaceId: string;
  affectedRows: number;
  withdrawn: number;
  seconds: number;
  /** The package of every affected row (so a package appears as often as the library names it). */
  packages: LibraryPackage[];
};

/** The space's library: RECORDS records with their affected rows, inserted in batches. */
async function seed(database: Database): Promise<Seeded> {
  const started = performance.now();
  const { db } = database;
  // The bench works in real time: the library is imported now.
  const importedAt = new Date();
  const [space] = await db
    .insert(spaces)
    .values({ name: 'Vulnerability bench', createdAt: importedAt, updatedAt: importedAt })
    .returning();
  if (!space) throw new Error('bench vulns: no space');
  let affectedRows = 0;
  let withdrawn = 0;
  const packages: LibraryPackage[] = [];
  const modified = new Date('2026-11-01T00:00:00Z');
  for (let start = 0; start < RECORDS; start += INSERT_BATCH) {
    const refs: (typeof vulnRefs.$inferInsert)[] = [];
    const rows: (typeof vulnAffected.$inferInsert)[] = [];
    for (let i = start; i < Math.min(RECORDS, start + INSERT_BATCH); i++) {
      const id = `BENCH-${String(i).padStart(6, '0')}`;
      const ecosystem = ecosystemOf();
      const gone = rnd() < 0.03;
      if (gone) withdrawn++;
      const entries = rnd() < 0.6 ? 1 : rnd() < 0.75 ? 2 : 3;
      let pkg = popularPackage();
      const affected: Record<string, unknown>[] = [];
      for (let seq = 0; seq < entries; seq++) {
        if (seq > 0 && rnd() < 0.5) pkg = popularPackage();
        const name = packageName(ecosystem, pkg);
        const shape = affectedShape(ecosystem);
        affected.push({ package: { ecosystem, name }, ...shape });
        packages.push({ ecosystem, name });
        rows.push({
          spaceId: space.id,
          refId: id,
          seq,
          ecosystem,
          packageKey: packageKey(ecosystem, name),
          packageName: name,
          ranges: shape.ranges,
          versions: shape.versions,
        });
      }
      refs.push({
        spaceId: space.id,
        id,
        modified,
        withdrawn: gone ? modified : null,
        summary: `Generated record ${i}`,
        ecosystems: [ecosystem],
        packages: [...new Set(rows.slice(-entries).map((row) => row.packageKey))],
        record: { id, modified: modified.toISOString(), affected },
        importedAt,
      });
    }
    await db.insert(vulnRefs).values(refs);
    await db.insert(vulnAffected).values(rows);
    affectedRows += rows.length;
    if ((start / INSERT_BATCH) % 10 === 9) progress(`${count(start + INSERT_BATCH)} records`);
  }
  await db.execute(sql.raw('vacuum analyze vuln_refs, vuln_affected'));
  return { spaceId: space.id, affectedRows, withdrawn, seconds: (performance.now() - started) / 1000, packages };
}

/**
 * The inventory: COMPONENTS components, 40 % on packages of the library (drawn from its affected rows, so a package
 * the library names often is likelier), the rest on packages it does not know.
 */
function inventory(library: readonly LibraryPackage[]): MatchComponent[] {
  return Array.from({ length: COMPONENTS }, (_, i) => {
    const known = rnd() < 0.4 ? pick(library) : null;
    const ecosystem = known?.ecosystem ?? ecosystemOf();
    const name = known?.name ?? `${packageName(ecosystem, PACKAGES + i)}-private`;
    const v = installed(ecosystem);
    return { key: componentKey(ecosystem, name, v), ecosystem, packageKey: packageKey(ecosystem, name), version: v };
  });
}

async function time<T>(work: () => Promise<T> | T): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await work();
  return { ms: performance.now() - started, value };
}

export async function benchVulns(): Promise<string> {
  const dir = tempDir('sg-bench-vulns-');
  const database = await openDatabase({ dataDir: dir.path, thread: true });
  try {
    await migrate(database);
    progress(`seeding ${count(RECORDS)} records`);
    const seeded = await seed(database);
    const components = inventory(seeded.packages);
    const keys = [...new Set(components.map((c) => c.packageKey))];
    const { db } = database;
    const load = loadAverage();

    const cold = await time(() => matchInventory(db, seeded.spaceId, components));
    await matchInventory(db, seeded.spaceId, components);
    const whole: number[] = [];
    for (let i = 0; i < RUNS; i++) whole.push((await time(() => matchInventory(db, seeded.spaceId, components))).ms);
    const reads: number[] = [];
    const matching: number[] = [];
    let rows = 0;
    for (let i = 0; i < RUNS; i++) {
      const read = await time(() => loadAffected(db, seeded.spaceId, keys));
      reads.push(read.ms);
      rows = read.value.length;
      matching.push((await time(() => matchComponents(components, read.value))).ms);
    }
    const matches = cold.value;
    const hitComponents = new Set(matches.map((m) => m.componentKey)).size;
    const withFix = matches.filter((m) => m.fixedIn !== null).length;
    const w = p50p95(whole);
    const r = p50p95(reads);
    const m = p50p95(matching);

    // A whole-space assessment: ASSETS assets of COMPONENTS components each, assessed once (every finding new),
    // then again (every finding seen before: its triage kept, nothing new).
    const madeAt = new Date();
    for (let a = 0; a < ASSETS; a++) {
      const [asset] = await db
        .insert(assets)
        .values({
          spaceId: seeded.spaceId,
          name: `asset ${a}`,
          kind: a % 2 ? 'host' : 'application',
          createdAt: madeAt,
          updatedAt: madeAt,
        })
        .returning({ id: assets.id });
      const rows = new Map(
        inventory(seeded.packages).map((c) => [
          c.key,
          {
            assetId: asset?.id ?? '',
            key: c.key,
            purl: null,
            ecosystem: c.ecosystem,
            name: c.packageKey.slice(c.ecosystem.length + 1),
            packageKey: c.packageKey,
            version: c.version,
          },
        ]),
      );
      for (let i = 0; i < rows.size; i += 500)
        await db.insert(assetComponents).values([...rows.values()].slice(i, i + 500));
    }
    const now = new Date();
    const first = await time(() =>
      assess(db, { spaceId: seeded.spaceId, assetId: null, trigger: 'manual', actor: systemActor, now }),
    );
    const again = await time(() =>
      assess(db, { spaceId: seeded.spaceId, assetId: null, trigger: 'manual', actor: systemActor, now: new Date() }),
    );
    return [
      '## Vulnerability matching',
      '',
      `Command: \`node bench/run.ts vulns\` (PGlite on disk, worker thread, as the server opens it). One space's library of ${count(RECORDS)} generated OSV records (${count(seeded.affectedRows)} affected entries, ${count(seeded.withdrawn)} records withdrawn; five ecosystems, ${count(PACKAGES)} packages with popular ones carrying many records, every range shape: introduced 0 + fixed, introduced + fixed, last_affected, two pairs in a range, two ranges, GIT with a versions list; a third of the entries with a versions list; inserted in ${seeded.seconds.toFixed(0)} s), and an inventory of ${count(COMPONENTS)} components (${count(keys.length)} packages, 40 % of them on packages of the library). \`matchInventory\` reads the affected rows of the inventory's package keys (non-withdrawn records, \`vuln_affected_package_idx\`) and matches them in memory (\`matchComponents\`: per-ecosystem order, parsed versions memoised). First call with the version cache empty, then ${RUNS} calls after one warm-up. Load average before: ${load}.`,
      '',
      ...table(
        ['step', 'first call ms', 'p50 ms', 'p95 ms'],
        [
          ['`matchInventory` (read + match)', ms(cold.ms), ms(w.p50), ms(w.p95)],
          [`read: \`loadAffected\` (${count(rows)} rows)`, '—', ms(r.p50), ms(r.p95)],
          ['match: `matchComponents`', '—', ms(m.p50), ms(m.p95)],
        ],
        [1, 2, 3],
      ),
      '',
      `Matches: ${count(matches.length)} (component, record) pairs over ${count(hitComponents)} components, ${count(withFix)} with a fixed-in version.`,
      '',
      `A whole-space assessment (\`assess\`, \`POST .../assessments\` without an asset): ${count(ASSETS)} assets of ${count(COMPONENTS)} components each (${count(first.value.components)} components), matched and written in one transaction.`,
      '',
      ...table(
        ['assessment', 'ms', 'findings'],
        [
          ['first (every finding new)', ms(first.ms), `${count(first.value.findingsNew)} new`],
          [
            'again (every finding seen before)',
            ms(again.ms),
            `${count(again.value.findingsNew)} new, ${count(again.value.findingsFixed)} fixed`,
          ],
        ],
        [1],
      ),
    ].join('\n');
  } finally {
    await database.close();
    dir.remove();
  }
}
