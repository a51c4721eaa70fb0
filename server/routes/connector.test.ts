import { readFileSync } from 'node:fs';
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { activity } from '../db/schema/activity.ts';
import { events } from '../db/schema/events.ts';
import { firewalls } from '../db/schema/firewalls.ts';
import { sources } from '../db/schema/sources.ts';
import { spaces } from '../db/schema/spaces.ts';
import { endAllWaits, waitingOn } from '../services/firewalls/connector/version-signal.ts';
import { BASE, createTestApi, type TestApi } from '../test/harness.ts';

vi.setConfig({ testTimeout: 30_000, hookTimeout: 120_000 });

let t: TestApi;
let owner: string;
let spaceId: string;

beforeAll(async () => {
  t = await createTestApi();
  owner = (await t.signUp('owner@example.com', 'Olive')).cookie;
  spaceId = (await t.read(t.api(owner).spaces.$post({ json: { name: 'Edge' } }))).json.id;
  await t.db.update(spaces).set({ plan: 'business' }).where(eq(spaces.id, spaceId));
});
afterAll(async () => {
  await t.close();
});

/** A new firewall in detect mode: its id and connector token. */
async function firewall(name = 'shop'): Promise<{ id: string; token: string }> {
  const res = await t.read(
    t.api(owner).spaces[':spaceId'].firewalls.$post({
      param: { spaceId },
      json: { name, hostnames: ['shop.example.com'], upstream: 'http://127.0.0.1:3000', mode: 'detect' },
    }),
  );
  if (res.status !== 201) throw new Error(`create ${res.status} ${res.text}`);
  return { id: res.json.id, token: res.json.token };
}

const save = (id: string, body: Record<string, unknown>) =>
  t.read(t.api(owner).spaces[':spaceId'].firewalls[':id'].$patch({ param: { spaceId, id }, json: body }));
const config = (token: string, headers: Record<string, string> = {}, query = '') =>
  t.raw('GET', `/api/connector/config${query}`, { token, headers });

/** ModSecurity's asctime in UTC, as the audit log writes `time_stamp`. */
function asctime(date: Date): string {
  const [day, dd, month, yyyy, time] = date.toUTCString().replace(',', '').split(' ');
  return `${day} ${month} ${String(Number(dd)).padStart(2, ' ')} ${time} ${yyyy}`;
}

/** The committed audit log fixture, stamped an hour ago so it counts in the 24 h figures. */
const auditLog = readFileSync(new URL('../services/ingest/fixtures/audit.ndjson', import.meta.url), 'utf8').replace(
  /"time_stamp":"[^"]+"/g,
  `"time_stamp":"${asctime(new Date(Date.now() - 3_600_000))}"`,
);
const records = auditLog.trim().split('\n').length;

describe('connector config', () => {
  test('answers the newest version’s files with its hash as ETag; If-None-Match answers 304', async () => {
    const fw = await firewall();
    const res = await config(fw.token);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ firewallId: fw.id, version: 1, hash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(res.json.files['modsecurity.conf']).toContain('SecRuleEngine DetectionOnly');
    expect(res.headers.get('etag')).toBe(`"${res.json.hash}"`);
    for (const tag of [
      res.headers.get('etag') ?? '',
      res.json.hash,
      `W/"${res.json.hash}"`,
      `"other", "${res.json.hash}"`,
    ]) {
      const again = await config(fw.token, { 'if-none-match': tag });
      expect(again.status).toBe(304);
      expect(again.text).toBe('');
      expect(again.headers.get('etag')).toBe(`"${res.json.hash}"`);
    }
    expect((await config(fw.token, { 'if-none-match': '"stale"' })).status).toBe(200);
    const [row] = await t.db.select().from(firewalls).where(eq(firewalls.id, fw.id));
    expect(row?.lastSeenAt).toBeInstanceOf(Date);
  });

  test('a held long poll answers as soon as a version is saved', async () => {
    const fw = await firewall();
    const first = await config(fw.token);
    const held = config(fw.token, { 'if-none-match': `"${first.json.hash}"` }, '?wait=60');
    await vi.waitFor(() => expect(waitingOn(fw.id)).toBe(1), { timeout: 10_000 });
    expect((await save(fw.id, { mode: 'block' })).status).toBe(200);
    // The test's time limit (30 s) is under the wait (60 s): only the save can have answered it.
    const res = await held;
    expect(res.status).toBe(200);
    expect(res.json.version).toBe(2);
    expect(res.json.files['modsecurity.conf']).toContain('SecRuleEngine On');
    expect(waitingOn(fw.id)).toBe(0);
  });

  test('a long poll answers at once when the caller is behind, and 304 when the wait ends without a save', async () => {
    const fw = await firewall();
    const first = await config(fw.token);
    await save(fw.id, { mode: 'off' });
    const behind = await config(fw.token, { 'if-none-match': `"${first.json.hash}"` }, '?wait=60');
    expect(behind.json.version).toBe(2);
    const quiet = await config(fw.token, { 'if-none-match': `"${behind.json.hash}"` }, '?wait=1');
    expect(quiet.status).toBe(304);
    expect((await config(fw.token, {}, '?wait=61')).status).toBe(400);
  });

  test('a long poll ends with 401 when the token is rotated or the firewall deleted meanwhile', async () => {
    const fw = await firewall('rotated');
    const hash = (await config(fw.token)).json.hash;
    const held = config(fw.token, { 'if-none-match': hash }, '?wait=60');
    await vi.waitFor(() => expect(waitingOn(fw.id)).toBe(1), { timeout: 10_000 });
    expect(
      (await t.read(t.api(owner).spaces[':spaceId'].firewalls[':id'].token.$post({ param: { spaceId, id: fw.id } })))
        .status,
    ).toBe(200);
    expect((await held).status).toBe(401);
  });

  test('when an IP list entry expires, the held poll gets a new version compiled without it', async () => {
    const fw = await firewall('expiring');
    const soon = new Date(Date.now() + 1_000).toISOString();
    const saved = await save(fw.id, {
      ipDeny: [{ cidr: '198.51.100.0/24', expiresAt: soon }, { cidr: '203.0.113.9' }],
    });
    expect(saved.status).toBe(200);
    const first = await config(fw.token);
    expect(first.json).toMatchObject({ version: 2 });
    expect(first.json.files['ip-deny.txt']).toBe('198.51.100.0/24\n203.0.113.9\n');
    // Nothing is saved: the expiry alone answers the held poll.
    const res = await config(fw.token, { 'if-none-match': `"${first.json.hash}"` }, '?wait=60');
    expect(res.status).toBe(200);
    expect(res.json.version).toBe(3);
    expect(res.json.files['ip-deny.txt']).toBe('203.0.113.9\n');
    const versions = await t.read(
      t.api(owner).spaces[':spaceId'].firewalls[':id'].versions.$get({ param: { spaceId, id: fw.id } }),
    );
    expect(versions.json.items[0]).toMatchObject({
      version: 3,
      author: { id: null, name: 'Spaceguard' },
      comment: 'IP list entries expired',
    });
    const [audit] = await t.db
      .select()
      .from(activity)
      .where(and(eq(activity.action, 'firewall.expire'), eq(activity.objectId, fw.id)));
    expect(audit?.actorName).toBe('Spaceguard');
    // The settings keep the entry (shown as expired); only the files leave it out.
    expect((await config(fw.token)).json.version).toBe(3);
    const read = await t.read(t.api(owner).spaces[':spaceId'].firewalls[':id'].$get({ param: { spaceId, id: fw.id } }));
    expect(read.json.ipDeny).toHaveLength(2);
  });

  test('the connector paths take only a firewall token', async () => {
    const fw = await firewall();
    expect((await t.raw('GET', '/api/connector/config')).status).toBe(401);
    expect((await t.raw('POST', '/api/connector/status', { body: { state: 'nope' } })).status).toBe(401);
    expect((await t.raw('GET', '/api/connector/config?wait=999')).status).toBe(401);
    expect((await t.raw('GET', '/api/connector/config', { cookie: owner })).status).toBe(401);
    const apiToken = (await t.read(t.api(owner).me.tokens.$post({ json: { name: 'ci' } }))).json.token;
    expect(apiToken).toBeTruthy();
    expect((await t.raw('GET', '/api/connector/config', { token: apiToken })).status).toBe(401);
    // And a firewall token is no personal API token elsewhere.
    expect(
      (await t.read(t.api({ token: fw.token }).spaces[':spaceId'].firewalls.$get({ param: { spaceId } }))).status,
    ).toBe(401);
  });
});

describe('connector status', () => {
  const report = (token: string, version: number) =>
    t.raw('POST', '/api/connector/status', { token, body: { version, state: 'applied' } });
  const applied = async (id: string) =>
    (await t.read(t.api(owner).spaces[':spaceId'].firewalls[':id'].$get({ param: { spaceId, id } }))).json.connector
      .appliedVersion;

  test('a rollback compiles to the restored version’s files and hash; a connector serving them is marked applied', async () => {
    const fw = await firewall('rolled back');
    const one = await config(fw.token);
    await report(fw.token, 1);
    await save(fw.id, { mode: 'block' });
    const two = await config(fw.token, { 'if-none-match': `"${one.json.hash}"` });
    await report(fw.token, 2);

    const rolled = await t.read(
      t
        .api(owner)
        .spaces[':spaceId'].firewalls[':id'].rollback.$post({ param: { spaceId, id: fw.id }, json: { version: 1 } }),
    );
    expect(rolled.json.version).toBe(3);
    const three = await t.read(
      t
        .api(owner)
        .spaces[':spaceId'].firewalls[':id'].versions[':version'].$get({ param: { spaceId, id: fw.id, version: '3' } }),
    );
    expect(three.json.hash).toBe(one.json.hash);
    expect(three.json.files).toEqual(one.json.files);
    expect(two.json.hash).not.toBe(one.json.hash);
    const fetched = await config(fw.token, { 'if-none-match': `"${two.json.hash}"` });
    expect(fetched.json).toMatchObject({ version: 3, hash: one.json.hash });

    // A save that changes nothing lands before the connector reports version 3: the report counts for version 4.
    expect((await save(fw.id, { mode: 'detect' })).json.version).toBe(4);
    expect((await report(fw.token, 3)).json).toMatchObject({ state: 'applied', appliedVersion: 4 });
    expect((await config(fw.token, { 'if-none-match': `"${one.json.hash}"` })).status).toBe(304);
    // And one saved while the connector serves those files is applied at once: nothing new travels.
    expect((await save(fw.id, { mode: 'detect', comment: 'no change' })).json.version).toBe(5);
    expect(await applied(fw.id)).toBe(5);
    // A change that does change the files waits for the connector.
    expect((await save(fw.id, { mode: 'off' })).json.version).toBe(6);
    expect(await applied(fw.id)).toBe(5);
  });

  test('applied and failed reports set the connector state; every call marks it seen', async () => {
    const fw = await firewall();
    await save(fw.id, { mode: 'block' });
    const applied = await t.raw('POST', '/api/connector/status', {
      token: fw.token,
      body: { version: 1, state: 'applied' },
    });
    expect(applied.status).toBe(200);
    expect(applied.json).toMatchObject({ state: 'applied', appliedVersion: 1, lastSeenAt: expect.any(String) });
    const failed = await t.raw('POST', '/api/connector/status', {
      token: fw.token,
      body: { version: 2, state: 'failed', message: 'nginx: [emerg] unknown directive "x" in server.conf:3' },
    });
    expect(failed.json).toEqual({
      state: 'failed',
      appliedVersion: 1,
      failedVersion: 2,
      lastSeenAt: expect.any(String),
      message: 'nginx: [emerg] unknown directive "x" in server.conf:3',
    });
    const read = await t.read(t.api(owner).spaces[':spaceId'].firewalls[':id'].$get({ param: { spaceId, id: fw.id } }));
    expect(read.json.connector).toMatchObject({ state: 'failed', appliedVersion: 1, failedVersion: 2 });
    const list = await t.read(t.api(owner).spaces[':spaceId'].firewalls.$get({ param: { spaceId } }));
    expect(list.json.items.find((i: { id: string }) => i.id === fw.id).connector.state).toBe('failed');
    const ahead = await t.raw('POST', '/api/connector/status', {
      token: fw.token,
      body: { version: 3, state: 'applied' },
    });
    expect(ahead.status).toBe(400);
    expect(ahead.json.error.fields).toEqual({ version: expect.stringContaining('newest is 2') });
    const bad = await t.raw('POST', '/api/connector/status', { token: fw.token, body: { version: 1, state: 'done' } });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.json.error.fields)).toEqual(['state']);
    const fixed = await t.raw('POST', '/api/connector/status', {
      token: fw.token,
      body: { version: 2, state: 'applied' },
    });
    expect(fixed.json).toEqual({ state: 'applied', appliedVersion: 2, lastSeenAt: expect.any(String) });
  });
});

describe('connector events', () => {
  const send = (token: string, body: string, headers: Record<string, string> = {}) =>
    t.app.request(`${BASE}/api/connector/events`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-ndjson', ...headers },
      body,
    });

  test('audit records are stored under the firewall’s own source, carry its id and are found with firewall:<id>', async () => {
    const fw = await firewall('events');
    const other = await firewall('other');
    // A record naming another firewall is still this firewall's.
    const forged = auditLog.replace('{"transaction"', `{"firewallId":"${other.id}","transaction"`);
    const res = await send(fw.token, `${forged}not json\n`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ accepted: records, errors: [{ line: records + 1 }] });
    const [row] = await t.db.select().from(firewalls).where(eq(firewalls.id, fw.id));
    const [source] = await t.db
      .select()
      .from(sources)
      .where(eq(sources.id, row?.sourceId ?? ''));
    expect(source).toMatchObject({ name: 'events', kind: 'modsecurity', spaceId });
    const stored = await t.db
      .select()
      .from(events)
      .where(eq(events.sourceId, source?.id ?? ''));
    expect(stored).toHaveLength(records);
    expect(new Set(stored.map((e) => e.firewallId))).toEqual(new Set([fw.id]));
    const [audit] = await t.db
      .select()
      .from(activity)
      .where(and(eq(activity.action, 'source.create'), eq(activity.objectId, source?.id ?? '')));
    expect(audit?.actorName).toBe('Connector of firewall events');

    const found = await t.read(
      t.api(owner).spaces[':spaceId'].events.$get({ param: { spaceId }, query: { q: `firewall:${fw.id}` } }),
    );
    expect(found.status).toBe(200);
    expect(found.json.items).toHaveLength(records);
    const none = await t.raw('GET', `/api/spaces/${spaceId}/events?q=firewall:${other.id}`, { cookie: owner });
    expect(none.json.items).toHaveLength(0);

    const list = await t.read(t.api(owner).spaces[':spaceId'].firewalls.$get({ param: { spaceId } }));
    const item = list.json.items.find((i: { id: string }) => i.id === fw.id);
    const blocked = stored.filter((e) => e.action === 'blocked').length;
    expect(item).toMatchObject({ events24h: records, blocked24h: blocked });
    expect(item.hourly.reduce((n: number, h: { events: number }) => n + h.events, 0)).toBe(records);
    expect(item.connector.lastSeenAt).toEqual(expect.any(String));

    // A second batch goes to the same source.
    await send(fw.token, auditLog.replaceAll('"unique_id":"', '"unique_id":"b'));
    expect(await t.db.select({ n: count() }).from(sources).where(eq(sources.spaceId, spaceId))).toEqual([{ n: 1 }]);
  });

  test('Idempotency-Key makes a retry a no-op; bad tokens 401; oversized batches 413', async () => {
    const fw = await firewall('retry');
    const body = auditLog.replaceAll('"unique_id":"', '"unique_id":"r');
    const first = await send(fw.token, body, { 'idempotency-key': 'batch-1' });
    const again = await send(fw.token, body.replaceAll('"unique_id":"r', '"unique_id":"s'), {
      'idempotency-key': 'batch-1',
    });
    expect(await again.json()).toEqual(await first.json());
    expect(await t.db.select({ n: count() }).from(events).where(eq(events.firewallId, fw.id))).toEqual([
      { n: records },
    ]);
    expect((await send('sgf_nope', body)).status).toBe(401);
    const many = Array.from({ length: 10_001 }, () => '{}').join('\n');
    expect((await send(fw.token, many)).status).toBe(413);
    const huge = 'x'.repeat(11 * 1024 * 1024);
    expect((await send(fw.token, huge)).status).toBe(413);
  });

  test('a deleted firewall source is made again on the next batch', async () => {
    const fw = await firewall('again');
    await send(fw.token, auditLog.replaceAll('"unique_id":"', '"unique_id":"g'));
    const [before] = await t.db.select().from(firewalls).where(eq(firewalls.id, fw.id));
    await t.read(
      t.api(owner).spaces[':spaceId'].sources[':id'].$delete({ param: { spaceId, id: String(before?.sourceId) } }),
    );
    const res = await send(fw.token, auditLog.replaceAll('"unique_id":"', '"unique_id":"h'));
    expect((await res.json()).accepted).toBe(records);
    const [after] = await t.db.select().from(firewalls).where(eq(firewalls.id, fw.id));
    expect(after?.sourceId).toBeTruthy();
    expect(after?.sourceId).not.toBe(before?.sourceId);
  });
});

// Last in this file: after it, every wait of this process ends at once.
test('on shutdown every held long poll answers 304 at once', async () => {
  const fw = await firewall('shutdown');
  const hash = (await config(fw.token)).json.hash;
  const held = config(fw.token, { 'if-none-match': `"${hash}"` }, '?wait=60');
  await vi.waitFor(() => expect(waitingOn(fw.id)).toBe(1), { timeout: 10_000 });
  endAllWaits();
  expect((await held).status).toBe(304);
  expect((await config(fw.token, { 'if-none-match': `"${hash}"` }, '?wait=60')).status).toBe(304);
});
