/** The vulnerability reference library API: imports (JSON and zip, the job and its progress), the modified rule, search, detail, roles. */
import { readFileSync } from 'node:fs';
import { and, eq } from 'drizzle-orm';
import { deflateSync, strToU8 } from 'fflate';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { Role } from '../../contract/common.ts';
import { generatedRecord, makeZip, type RawFile, rawZip } from '../../tests/fixtures/osv/zip.ts';
import { jobs } from '../db/schema/jobs.ts';
import { memberships } from '../db/schema/memberships.ts';
import { vulnAffected, vulnImports, vulnRefs } from '../db/schema/vulns.ts';
import { importWorker } from '../services/vulns/workers/import-worker.ts';
import { BASE, createTestApi, ORIGIN, type TestApi } from '../test/harness.ts';
import { jobsOf } from '../test/jobs.ts';
import { runUntilIdle } from '../test/run-jobs.ts';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const fixture = (name: string) => readFileSync(new URL(`../../tests/fixtures/osv/${name}`, import.meta.url), 'utf8');
const npmRecord = JSON.parse(fixture('GHSA-4w2v-q235-vp99.json'));
const pypiRecord = JSON.parse(fixture('GHSA-h5c8-rqwp-cp95.json'));
const debianRecord = JSON.parse(fixture('DSA-5576-1.json'));
const withdrawnRecord = JSON.parse(fixture('GHSA-9wx4-h78v-vm56.withdrawn.json'));
const invalidRecord = JSON.parse(fixture('invalid.json'));

let t: TestApi;
const as = {} as Record<Role, string>;
let spaceId: string;

beforeAll(async () => {
  t = await createTestApi();
  as.owner = (await t.signUp('owner@example.com', 'Olive')).cookie;
  spaceId = (await t.read(t.api(as.owner).spaces.$post({ json: { name: 'Library' } }))).json.id;
  for (const role of ['admin', 'analyst', 'viewer'] as const) {
    const { cookie, user } = await t.signUp(`${role}@example.com`);
    await t.db.insert(memberships).values({ spaceId, userId: user.id, role, createdAt: t.deps.now() });
    as[role] = cookie;
  }
});
afterAll(async () => {
  await t.close();
});

const refs = (space = spaceId) => `/api/spaces/${space}/vuln-refs`;

/** Posts bytes as an import (the harness's `call` sends JSON only). */
async function upload(body: Uint8Array | string, contentType: string, cookie = as.admin, fileName?: string) {
  const query = fileName ? `?fileName=${encodeURIComponent(fileName)}` : '';
  const res = await t.app.request(`${BASE}${refs()}${query}`, {
    method: 'POST',
    headers: { cookie, origin: ORIGIN, 'content-type': contentType, 'x-forwarded-for': '203.0.113.7' },
    body: body as BodyInit,
  });
  const text = await res.text();
  // biome-ignore lint/suspicious/noExplicitAny: tests read answers loosely
  return { status: res.status, json: (text ? JSON.parse(text) : null) as any, text };
}

/** Runs queued import jobs to the end. */
function runImports() {
  return runUntilIdle(t.db, [importWorker], { deps: t.deps });
}

describe('importing JSON', () => {
  test.each([
    ['viewer', 403],
    ['analyst', 403],
  ] as const)('%s may not import: %s', async (role, status) => {
    const res = await upload(JSON.stringify(npmRecord), 'application/json', as[role]);
    expect(res.status).toBe(status);
  });

  test('one record is imported at once, with its severity scored and affected rows written', async () => {
    const res = await upload(JSON.stringify(npmRecord), 'application/json', as.admin, 'GHSA-4w2v-q235-vp99.json');
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      status: 'done',
      fileName: 'GHSA-4w2v-q235-vp99.json',
      filesTotal: 1,
      filesRead: 1,
      imported: 1,
      updated: 0,
      unchanged: 0,
      withdrawn: 0,
      refusedCount: 0,
    });
    const [row] = await t.db.select().from(vulnRefs).where(eq(vulnRefs.id, 'GHSA-4w2v-q235-vp99'));
    expect(row).toMatchObject({ severity: 'high', score: 7.5, ecosystems: ['npm'], packages: ['npm:table-markdown'] });
    const affected = await t.db.select().from(vulnAffected).where(eq(vulnAffected.refId, 'GHSA-4w2v-q235-vp99'));
    expect(affected.map((a) => a.packageKey)).toEqual(['npm:table-markdown']);
  });

  test('an array: counts per record, refused items named with field path and rule, withdrawn kept without matching rows', async () => {
    const res = await upload(
      JSON.stringify([npmRecord, pypiRecord, debianRecord, withdrawnRecord, invalidRecord]),
      'application/json',
      as.owner,
      'batch.json',
    );
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      filesTotal: 5,
      filesRead: 5,
      imported: 2,
      unchanged: 1,
      withdrawn: 1,
      refusedCount: 1,
    });
    expect(res.json.refused).toHaveLength(1);
    expect(res.json.refused[0].file).toBe('batch.json[4]');
    expect(res.json.refused[0].reason).toMatch(/^modified: /);
    expect(res.json.refused[0].reason).toContain('affected.0.ranges.0.events.0: Give exactly one of introduced');
    const withdrawnRows = await t.db.select().from(vulnAffected).where(eq(vulnAffected.refId, withdrawnRecord.id));
    expect(withdrawnRows).toEqual([]);
    // Alpine is kept in the record but Spaceguard does not order it: only Debian gets a matching row.
    const debianRows = await t.db.select().from(vulnAffected).where(eq(vulnAffected.refId, 'DSA-5576-1'));
    // The entry keeps its release: it matches Debian 12 components (or components of no known release) only.
    expect(debianRows.map((r) => [r.ecosystem, r.packageKey])).toEqual([['Debian:12', 'Debian:openssl']]);
  });

  test('an older modified never overwrites a newer one; a newer one updates', async () => {
    const older = { ...npmRecord, modified: '2024-01-01T00:00:00Z', summary: 'older text' };
    const res = await upload(JSON.stringify(older), 'application/json');
    expect(res.json).toMatchObject({ imported: 0, updated: 0, unchanged: 1 });
    const same = await upload(JSON.stringify(npmRecord), 'application/json');
    expect(same.json).toMatchObject({ unchanged: 1 });
    const newer = { ...npmRecord, modified: '2024-07-01T00:00:00Z', summary: 'newer text' };
    const updated = await upload(JSON.stringify(newer), 'application/json');
    expect(updated.json).toMatchObject({ imported: 0, updated: 1, unchanged: 0 });
    const [row] = await t.db.select().from(vulnRefs).where(eq(vulnRefs.id, npmRecord.id));
    expect(row?.summary).toBe('newer text');
    const back = await upload(JSON.stringify(npmRecord), 'application/json');
    expect(back.json).toMatchObject({ unchanged: 1, updated: 0 });
  });

  test('an import that changed the library enqueues one re-assessment; an unchanged one none', async () => {
    const assess = await jobsOf(t.db, 'vulns.assess');
    expect(assess.length).toBeGreaterThanOrEqual(3);
    expect(assess[0]?.args).toEqual({ spaceId, assetId: null, trigger: 'import' });
    expect(assess.every((job) => job.uniqueKey?.startsWith('vulns.assess:import:'))).toBe(true);
    const before = assess.length;
    await upload(JSON.stringify(npmRecord), 'application/json');
    expect((await jobsOf(t.db, 'vulns.assess')).length).toBe(before);
  });

  test('bad bodies: not JSON, another type, an empty body', async () => {
    expect((await upload('{"id":', 'application/json')).status).toBe(400);
    const typed = await upload('id: x', 'text/yaml');
    expect(typed.status).toBe(415);
    expect(typed.json.error.code).toBe('unsupported_media_type');
    expect((await upload('', 'application/json')).status).toBe(400);
    expect((await upload('not a zip', 'application/zip')).status).toBe(400);
  });
});

describe('importing a zip', () => {
  test('a zip of hundreds of files runs as a job: progress, counts, refused files with reasons', async () => {
    const files = [
      ...Array.from({ length: 300 }, (_, i) => ({
        name: `npm/GHSA-gen0-${i}.json`,
        content: JSON.stringify(generatedRecord(i)),
      })),
      { name: 'npm/', content: '' },
      { name: 'PyPI/GHSA-h5c8-rqwp-cp95.json', content: JSON.stringify(pypiRecord) },
      { name: 'README.txt', content: 'not a record' },
      { name: 'npm/broken.json', content: '{"id": "GHSA-x", ' },
      { name: 'npm/invalid.json', content: JSON.stringify(invalidRecord) },
      {
        name: 'npm/nul.json',
        content: JSON.stringify({ ...npmRecord, id: 'GHSA-nul0-0000-0000', summary: 'a\u0000b' }),
      },
    ];
    const res = await upload(makeZip(files), 'application/zip', as.admin, 'all.zip');
    expect(res.status).toBe(202);
    expect(res.json).toMatchObject({ status: 'queued', fileName: 'all.zip', contentType: 'application/zip' });
    const importId = res.json.id as string;
    const listed = await t.read(t.api(as.viewer).spaces[':spaceId']['vuln-refs'].imports.$get({ param: { spaceId } }));
    expect(listed.json.items[0]).toMatchObject({ id: importId, status: 'queued' });
    expect(listed.text).not.toContain('"body"');

    await runImports();
    const done = await t.read(
      t.api(as.viewer).spaces[':spaceId']['vuln-refs'].imports[':id'].$get({ param: { spaceId, id: importId } }),
    );
    expect(done.status).toBe(200);
    expect(done.json).toMatchObject({
      status: 'done',
      filesTotal: files.length,
      filesRead: files.length,
      imported: 300,
      unchanged: 1,
      refusedCount: 4,
      error: null,
    });
    const reasons = Object.fromEntries(
      done.json.refused.map((r: { file: string; reason: string }) => [r.file, r.reason]),
    );
    expect(reasons['README.txt']).toMatch(/Not a \.json file/);
    expect(reasons['npm/broken.json']).toMatch(/^Not JSON/);
    expect(reasons['npm/invalid.json']).toMatch(/^modified: /);
    expect(reasons['npm/nul.json']).toMatch(/^summary: may not contain the NUL/);
    const [row] = await t.db.select().from(vulnImports).where(eq(vulnImports.id, importId));
    expect(row?.body).toBeNull();
    const assess = await jobsOf(t.db, 'vulns.assess');
    expect(assess.some((job) => job.uniqueKey === `vulns.assess:import:${importId}`)).toBe(true);
  });

  test('progress is written as the job goes (batches of 200)', async () => {
    const files = Array.from({ length: 450 }, (_, i) => ({
      name: `GHSA-gen0-${i}.json`,
      content: JSON.stringify(generatedRecord(i, '2024-05-01T00:00:00Z')),
    }));
    const res = await upload(makeZip(files), 'application/zip');
    const seen: number[] = [];
    const { db } = t;
    const original = db.transaction.bind(db);
    // Reads the import's progress as each batch's transaction begins.
    const spy = vi.spyOn(db, 'transaction').mockImplementation((async (fn: never) => {
      const [row] = await db.select().from(vulnImports).where(eq(vulnImports.id, res.json.id));
      if (row) seen.push(row.filesRead);
      return original(fn);
    }) as never);
    try {
      await runImports();
    } finally {
      spy.mockRestore();
    }
    expect(seen).toEqual([0, 200, 400]);
    const done = await t.read(
      t.api(as.viewer).spaces[':spaceId']['vuln-refs'].imports[':id'].$get({ param: { spaceId, id: res.json.id } }),
    );
    expect(done.json).toMatchObject({ status: 'done', filesRead: 450, filesTotal: 450, updated: 300, imported: 150 });
  });

  test('what cannot be read is refused before anything is written; a large body that is no JSON fails the job', async () => {
    const before = (await t.db.select().from(vulnImports)).length;
    const zip = makeZip([{ name: 'a.json', content: JSON.stringify(npmRecord) }]);
    const truncated = await upload(zip.slice(0, zip.length - 10), 'application/zip');
    expect(truncated.status).toBe(400);
    expect(truncated.json.error.fields.body).toMatch(/zip archive cannot be read/);
    expect((await upload(makeZip([]), 'application/zip')).json.error.message).toBe('The zip archive holds no files.');
    expect((await upload('[]', 'application/json')).json.error.message).toBe('The file holds no records.');
    expect((await t.db.select().from(vulnImports)).length).toBe(before);

    const res = await upload(`[${'1,'.repeat(600_000)}`, 'application/json');
    expect(res.status).toBe(202);
    await runImports();
    const failed = await t.read(
      t.api(as.viewer).spaces[':spaceId']['vuln-refs'].imports[':id'].$get({ param: { spaceId, id: res.json.id } }),
    );
    expect(failed.json.status).toBe('failed');
    expect(failed.json.error).toMatch(/^The file is not JSON/);
    const jobs = await jobsOf(t.db, 'vulns.import');
    expect(jobs.at(-1)?.state).toBe('discarded');
  });

  test('a body past the import limit is refused with 413, and bodies past 1 MiB are accepted on this path', async () => {
    const big = JSON.stringify([...Array.from({ length: 3000 }, (_, i) => generatedRecord(i + 1000))]);
    expect(big.length).toBeGreaterThan(1024 * 1024);
    const res = await upload(big, 'application/json');
    expect(res.status).toBe(202);
    await runImports();
    const done = await t.read(
      t.api(as.viewer).spaces[':spaceId']['vuln-refs'].imports[':id'].$get({ param: { spaceId, id: res.json.id } }),
    );
    expect(done.json).toMatchObject({ status: 'done', imported: 3000, filesTotal: 3000 });
    const tooBig = await t.app.request(`${BASE}${refs()}`, {
      method: 'POST',
      headers: {
        cookie: as.admin,
        origin: ORIGIN,
        'content-type': 'application/zip',
        'content-length': String(300 * 1024 * 1024),
      },
      body: 'PK',
    });
    expect(tooBig.status).toBe(413);
    expect((await tooBig.json()).error.code).toBe('payload_too_large');
  });
});

describe('the library', () => {
  test('search by id, CVE alias, package and text; filters; paging', async () => {
    const list = (query: string) => t.raw('GET', `${refs()}?${query}`, { cookie: as.viewer });
    expect((await list('q=cve-2024-34064')).json.items.map((i: { id: string }) => i.id)).toEqual([
      'GHSA-h5c8-rqwp-cp95',
    ]);
    expect((await list('q=DSA-5576')).json.items.map((i: { id: string }) => i.id)).toEqual(['DSA-5576-1']);
    expect((await list('q=jinja2')).json.items[0].id).toBe('GHSA-h5c8-rqwp-cp95');
    expect((await list('q=xmlattr%20filter')).json.items[0].id).toBe('GHSA-h5c8-rqwp-cp95');
    expect((await list('q=100%25')).json.items).toEqual([]);
    expect((await list('ecosystem=Debian')).json.items.map((i: { id: string }) => i.id)).toEqual(['DSA-5576-1']);
    const medium = (await list('severity=medium&q=GHSA-h5c8')).json.items;
    expect(medium[0]).toMatchObject({ severity: 'medium', score: 5.3 });
    const withdrawn = (await list('q=GHSA-9wx4')).json.items[0];
    expect(withdrawn.withdrawn).toBe('2024-03-14T12:00:00.000Z');
    expect(
      (await list('modifiedFrom=2024-06-10&modifiedTo=2024-06-10')).json.items.map((i: { id: string }) => i.id),
    ).toEqual(['GHSA-h5c8-rqwp-cp95']);
    const first = (await list('q=generated&limit=100')).json;
    expect(first.items).toHaveLength(100);
    const second = (await list(`q=generated&limit=100&cursor=${first.nextCursor}`)).json;
    expect(second.items).toHaveLength(100);
    expect(second.items[0].id).not.toBe(first.items[0].id);
    expect((await list('cursor=bm9wZQ')).status).toBe(400);
    expect((await list('severity=dire')).status).toBe(400);
    expect((await list('modifiedFrom=yesterday')).json.error.fields.modifiedFrom).toBeTruthy();
  });

  test('a record’s detail: severity scored with its parts, ranges in words, references, aliases', async () => {
    const res = await t.read(
      t.api(as.viewer).spaces[':spaceId']['vuln-refs'][':id'].$get({
        param: { spaceId, id: encodeURIComponent('GHSA-h5c8-rqwp-cp95') },
      }),
    );
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      severity: 'medium',
      score: 5.3,
      severitySource: 'cvss',
      aliases: ['CVE-2024-34064', 'PYSEC-2024-39'],
    });
    const v4 = res.json.severities.find((s: { type: string }) => s.type === 'CVSS_V4');
    expect(v4).toMatchObject({ version: '4.0', score: 5.3, rating: 'medium' });
    expect(v4.metrics[0]).toEqual({ key: 'AV', name: 'Attack Vector', value: 'N', valueName: 'Network' });
    const v3 = res.json.severities.find((s: { type: string }) => s.type === 'CVSS_V3');
    expect(v3).toMatchObject({ version: '3.1', score: 5.4, rating: 'medium' });
    expect(res.json.affected[0]).toMatchObject({
      ecosystem: 'PyPI',
      name: 'Jinja2',
      matched: true,
      ranges: [{ type: 'ECOSYSTEM', words: ['every version before 3.1.4'] }],
    });
    const npm = await t.read(
      t.api(as.viewer).spaces[':spaceId']['vuln-refs'][':id'].$get({ param: { spaceId, id: 'GHSA-4w2v-q235-vp99' } }),
    );
    expect(npm.json.affected[0].ranges[0].words).toEqual(['from 2.0.0 before 2.3.1']);
    expect(npm.json.details).toContain('### Impact');
    const debian = await t.read(
      t.api(as.viewer).spaces[':spaceId']['vuln-refs'][':id'].$get({ param: { spaceId, id: 'DSA-5576-1' } }),
    );
    expect(debian.json).toMatchObject({ severity: 'medium', score: null, severitySource: 'ecosystem' });
    expect(debian.json.affected.map((a: { matched: boolean }) => a.matched)).toEqual([true, false]);
    expect(debian.json.references[0].url).toBe('https://www.debian.org/security/2023/dsa-5576');
    expect(
      (
        await t.read(
          t
            .api(as.viewer)
            .spaces[':spaceId']['vuln-refs'][':id'].$get({ param: { spaceId, id: 'GHSA-none-0000-0000' } }),
        )
      ).status,
    ).toBe(404);
  });

  test('ids with colons are found through their encoded path', async () => {
    const record = { ...debianRecord, id: 'RHSA-2024:1234', aliases: [] };
    expect((await upload(JSON.stringify(record), 'application/json')).json.imported).toBe(1);
    const res = await t.read(
      t
        .api(as.viewer)
        .spaces[':spaceId']['vuln-refs'][':id'].$get({ param: { spaceId, id: encodeURIComponent('RHSA-2024:1234') } }),
    );
    expect(res.status).toBe(200);
    expect(res.json.id).toBe('RHSA-2024:1234');
  });

  test('another space sees none of it', async () => {
    const other = (await t.read(t.api(as.owner).spaces.$post({ json: { name: 'Other' } }))).json.id;
    const res = await t.raw('GET', refs(other), { cookie: as.owner });
    expect(res.json.items).toEqual([]);
    const rows = await t.db
      .select()
      .from(vulnRefs)
      .where(and(eq(vulnRefs.spaceId, other)));
    expect(rows).toEqual([]);
    expect(
      (
        await t.read(
          t.api(as.owner).spaces[':spaceId']['vuln-refs'][':id'].$get({ param: { spaceId: other, id: 'DSA-5576-1' } }),
        )
      ).status,
    ).toBe(404);
  });
});

describe('zip bombs', () => {
  /** 16 MiB of zeros, deflated to about 16 KiB: a thousand times smaller than what it inflates to. */
  const zeros = new Uint8Array(16 * 1024 * 1024);
  const deflatedZeros = deflateSync(zeros, { level: 9 });
  const recordFile = (i: number): RawFile => {
    const data = strToU8(JSON.stringify(generatedRecord(5000 + i)));
    return { name: `npm/GHSA-gen0-${5000 + i}.json`, data: deflateSync(data), size: data.length };
  };

  /** Posts a hostile zip: the refusal before anything is written, or nothing. */
  async function refusedAtOnce(zip: Uint8Array, fileName: string) {
    const imports = (await t.db.select().from(vulnImports)).length;
    const queued = (await t.db.select().from(jobs)).length;
    const res = await upload(zip, 'application/zip', as.admin, fileName);
    expect(res.status).toBe(400);
    // Nothing was written and no job will inflate it.
    expect((await t.db.select().from(vulnImports)).length).toBe(imports);
    expect((await t.db.select().from(jobs)).length).toBe(queued);
    return res.json.error.fields.body as string;
  }

  test('400 directory entries pointing at one deflated 16 MiB entry are refused as overlapping', async () => {
    const bomb = rawZip(
      [{ name: 'npm/GHSA-bomb-0.json', data: deflatedZeros, size: zeros.length }],
      Array.from({ length: 400 }, (_, i) => ({ file: 0, name: `npm/GHSA-bomb-${i}.json` })),
    );
    expect(bomb.length).toBeLessThan(64 * 1024);
    expect(await refusedAtOnce(bomb, 'archive.zip')).toBe('archive.zip: entries overlap (a zip bomb): refused.');
  });

  test('an entry whose data run into the next entry’s is refused as overlapping', async () => {
    const [first, second] = [recordFile(1), recordFile(2)];
    const spanning = first.data.length + 30 + second.name.length + 1;
    const zip = rawZip([first, second], [{ file: 0, compressedSize: spanning }, { file: 1 }]);
    expect(await refusedAtOnce(zip, 'quoted.zip')).toBe('quoted.zip: entries overlap (a zip bomb): refused.');
  });

  test('an archive announcing more entries than the cap is refused before they are read', async () => {
    const zip = rawZip([recordFile(1)], undefined, { entryCount: 1_000_001 });
    expect(await refusedAtOnce(zip, 'many.zip')).toBe(
      'many.zip: 1,000,001 entries, more than the 1,000,000 an import reads: refused.',
    );
  });

  test('an entry whose directory says it inflates a thousandfold is refused before it is read', async () => {
    const zip = rawZip([recordFile(1), { name: 'npm/zeros.json', data: deflatedZeros, size: zeros.length }]);
    expect(await refusedAtOnce(zip, 'zeros.zip')).toBe(
      'zeros.zip: npm/zeros.json inflates to more than 100 times its compressed size (a zip bomb): refused.',
    );
  });

  test('an entry that lies about its size stops the import while inflating, and the answer says why', async () => {
    const files = [
      recordFile(1),
      recordFile(2),
      { name: 'npm/zeros.json', data: deflatedZeros, size: 1_000 },
      recordFile(3),
      recordFile(4),
    ];
    const res = await upload(rawZip(files), 'application/zip', as.admin, 'liar.zip');
    expect(res.status).toBe(202);
    await runImports();
    const failed = await t.read(
      t.api(as.viewer).spaces[':spaceId']['vuln-refs'].imports[':id'].$get({ param: { spaceId, id: res.json.id } }),
    );
    expect(failed.json).toMatchObject({
      status: 'failed',
      error: 'liar.zip: npm/zeros.json inflates to more than 100 times its compressed size (a zip bomb): refused.',
      filesTotal: 5,
      // It stopped at the bomb: the two files before it were read, the two after it never were.
      filesRead: 2,
    });
    const later = await t.db
      .select()
      .from(vulnRefs)
      .where(eq(vulnRefs.id, generatedRecord(5003).id));
    expect(later).toEqual([]);
    const [job] = (await jobsOf(t.db, 'vulns.import')).filter(
      (j) => (j.args as { importId: string }).importId === res.json.id,
    );
    expect(job?.state).toBe('discarded');
  });
});
