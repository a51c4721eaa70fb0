/** Matching an inventory against a space's library in the database: only the space's non-withdrawn records. */
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import type { Db } from '../../../db/database.ts';
import { spaces } from '../../../db/schema/spaces.ts';
import { vulnAffected, vulnRefs } from '../../../db/schema/vulns.ts';
import { freshDatabase } from '../../../test/harness.ts';
import type { OsvRange } from '../ecosystems/affected.ts';
import { componentKey, packageKey } from '../ecosystems/names.ts';
import { loadAffected, matchInventory } from './load.ts';
import type { MatchComponent } from './match.ts';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

let fresh: Awaited<ReturnType<typeof freshDatabase>>;
let db: Db;
let spaceId = '';
let otherSpaceId = '';

const upToFix = (fixed: string): OsvRange[] => [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }, { fixed }] }];

async function addRecord(
  space: string,
  id: string,
  affected: { ecosystem: string; name: string; key: string; ranges: OsvRange[]; versions?: string[] }[],
  withdrawn: Date | null = null,
) {
  await db.insert(vulnRefs).values({
    spaceId: space,
    id,
    modified: new Date('2026-01-01T00:00:00Z'),
    withdrawn,
    record: { id },
    importedAt: new Date('2026-01-01T00:00:00Z'),
  });
  if (affected.length === 0) return;
  await db.insert(vulnAffected).values(
    affected.map((a, seq) => ({
      spaceId: space,
      refId: id,
      seq,
      ecosystem: a.ecosystem,
      packageKey: a.key,
      packageName: a.name,
      ranges: a.ranges,
      versions: a.versions ?? [],
    })),
  );
}

const component = (ecosystem: MatchComponent['ecosystem'], name: string, version: string): MatchComponent => ({
  key: componentKey(ecosystem, name, version),
  ecosystem,
  packageKey: packageKey(ecosystem, name),
  version,
});

beforeAll(async () => {
  fresh = await freshDatabase();
  db = fresh.database.db;
  const madeAt = new Date('2026-01-01T00:00:00Z');
  const [space, other] = await db
    .insert(spaces)
    .values([
      { name: 'shop', createdAt: madeAt, updatedAt: madeAt },
      { name: 'other', createdAt: madeAt, updatedAt: madeAt },
    ])
    .returning();
  if (!space || !other) throw new Error('no space');
  spaceId = space.id;
  otherSpaceId = other.id;
  const lodash = { ecosystem: 'npm', name: 'lodash', key: 'npm:lodash' };
  const requests = { ecosystem: 'PyPI', name: 'requests', key: 'PyPI:requests' };
  const openssl = { ecosystem: 'Debian', name: 'openssl', key: 'Debian:openssl' };
  await addRecord(spaceId, 'GHSA-live', [{ ...lodash, ranges: upToFix('4.17.21') }]);
  // Withdrawn, though its affected entry is still there: kept, never matched.
  await addRecord(
    spaceId,
    'GHSA-withdrawn',
    [{ ...lodash, ranges: upToFix('5.0.0') }],
    new Date('2026-02-01T00:00:00Z'),
  );
  await addRecord(spaceId, 'PYSEC-2', [
    { ...requests, ranges: upToFix('2.31.0') },
    { ...requests, ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '3.0' }, { fixed: '3.1' }] }] },
  ]);
  await addRecord(spaceId, 'DSA-1', [{ ...openssl, ecosystem: 'Debian', ranges: upToFix('3.0.11-1~deb12u2') }]);
  // Another space's library is not this space's.
  await addRecord(otherSpaceId, 'GHSA-elsewhere', [{ ...lodash, ranges: upToFix('9.0.0') }]);
});

afterAll(async () => {
  await fresh?.drop();
});

test('an inventory matches the live records of its own space only', async () => {
  const matches = await matchInventory(db, spaceId, [
    component('npm', 'Lodash', '4.17.20'),
    component('PyPI', 'Requests', '2.30.0'),
    component('PyPI', 'requests', '3.0.1'),
    component('Debian', 'openssl', '3.0.11-1~deb12u1'),
    component('Debian', 'openssl', '3.0.11-1'),
    component('npm', 'left-pad', '1.0.0'),
  ]);
  expect(matches.sort((a, b) => a.componentKey.localeCompare(b.componentKey))).toEqual([
    { componentKey: 'Debian:openssl@3.0.11-1~deb12u1', refId: 'DSA-1', fixedIn: '3.0.11-1~deb12u2' },
    { componentKey: 'npm:lodash@4.17.20', refId: 'GHSA-live', fixedIn: '4.17.21' },
    { componentKey: 'PyPI:requests@2.30.0', refId: 'PYSEC-2', fixedIn: '2.31.0' },
    { componentKey: 'PyPI:requests@3.0.1', refId: 'PYSEC-2', fixedIn: '3.1' },
  ]);
});

test('a withdrawn record never matches, even at a version only it covers', async () => {
  expect(await matchInventory(db, spaceId, [component('npm', 'lodash', '4.17.21')])).toEqual([]);
});

test('only the rows of the asked package keys are read, in chunks', async () => {
  const keys = ['npm:lodash', ...Array.from({ length: 4_500 }, (_, i) => `npm:pkg-${i}`), 'PyPI:requests'];
  const rows = await loadAffected(db, spaceId, keys);
  expect(rows.map((r) => `${r.refId}/${r.seq}`).sort()).toEqual(['GHSA-live/0', 'PYSEC-2/0', 'PYSEC-2/1']);
  expect(await matchInventory(db, spaceId, [])).toEqual([]);
});
