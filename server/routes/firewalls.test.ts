import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { Role } from '../../contract/common.ts';
import { customRuleIdRange } from '../../contract/constants/firewalls.ts';
import type { CreateFirewallBody, UpdateFirewallBody } from '../../contract/firewalls.ts';
import { activity } from '../db/schema/activity.ts';
import { firewalls } from '../db/schema/firewalls.ts';
import { memberships } from '../db/schema/memberships.ts';
import { spaces } from '../db/schema/spaces.ts';
import { hashToken } from '../services/shared/tokens.ts';
import { createTestApi, type TestApi } from '../test/harness.ts';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

let t: TestApi;
const as = {} as Record<Role, string>;
let spaceId: string;

beforeAll(async () => {
  t = await createTestApi();
  as.owner = (await t.signUp('owner@example.com', 'Olive')).cookie;
  spaceId = (await t.read(t.api(as.owner).spaces.$post({ json: { name: 'Edge' } }))).json.id;
  // Room for many firewalls; the free plan's limit has its own test.
  await t.db.update(spaces).set({ plan: 'business' }).where(eq(spaces.id, spaceId));
  for (const role of ['admin', 'analyst', 'viewer'] as const) {
    const { cookie, user } = await t.signUp(`${role}@example.com`, `${role[0]?.toUpperCase()}${role.slice(1)}`);
    await t.db.insert(memberships).values({ spaceId, userId: user.id, role, createdAt: t.deps.now() });
    as[role] = cookie;
  }
});
afterAll(async () => {
  await t.close();
});

const base = () => `/api/spaces/${spaceId}/firewalls`;
const minimal = {
  name: 'shop',
  hostnames: ['shop.example.com'],
  upstream: 'http://127.0.0.1:3000',
  mode: 'detect',
} satisfies CreateFirewallBody;

/** A custom rule as a save sends it. */
type CustomRuleInput = NonNullable<UpdateFirewallBody['customRules']>[number];

/** Sends a new firewall to a space (the test space unless named) as a caller (the admin unless named). */
const post = (json: CreateFirewallBody, cookie = as.admin, space = spaceId) =>
  t.read(t.api(cookie).spaces[':spaceId'].firewalls.$post({ param: { spaceId: space }, json }));

/** Saves a change of a firewall as the admin. */
const patch = (id: string, json: UpdateFirewallBody) =>
  t.read(t.api(as.admin).spaces[':spaceId'].firewalls[':id'].$patch({ param: { spaceId, id }, json }));

/** The connector's view of its firewall, asked with its token. */
const connectorConfig = (token: string) => t.read(t.api({ token }).connector.config.$get({ query: {}, header: {} }));

/** Creates a firewall as the admin and answers the created body (with its token). */
async function create(body: Partial<CreateFirewallBody> = {}) {
  const res = await post({ ...minimal, ...body });
  if (res.status !== 201) throw new Error(`create ${res.status} ${res.text}`);
  return res.json;
}

const audits = (objectId: string) =>
  t.db.select().from(activity).where(eq(activity.objectId, objectId)).orderBy(activity.createdAt);

describe('firewalls', () => {
  test('create answers version 1 with the defaults and the token once; only its hash is stored; audited', async () => {
    const res = await post(minimal);
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({
      ...minimal,
      version: 1,
      trustedProxies: ['127.0.0.1/32', '::1/128'],
      managedRules: {
        paranoiaLevel: 1,
        inboundThreshold: 5,
        outboundThreshold: 4,
        disabledGroups: [],
        applications: [],
      },
      exclusions: [],
      customRules: [],
      ipAllow: [],
      ipDeny: [],
      countryBlock: [],
      rateLimits: [],
      connector: { state: 'never', appliedVersion: null, lastSeenAt: null },
    });
    expect(res.json.token).toMatch(/^sgf_[A-Za-z0-9_-]{43}$/);
    expect(res.json.token.startsWith(res.json.tokenPrefix)).toBe(true);
    const [row] = await t.db.select().from(firewalls).where(eq(firewalls.id, res.json.id));
    expect(row?.tokenHash).toBe(hashToken(res.json.token));
    expect(JSON.stringify(row)).not.toContain(res.json.token);
    const read = await t.read(
      t.api(as.viewer).spaces[':spaceId'].firewalls[':id'].$get({ param: { spaceId, id: res.json.id } }),
    );
    expect(read.status).toBe(200);
    expect(read.json.token).toBeUndefined();
    expect(read.json.version).toBe(1);
    const [audit] = await audits(res.json.id);
    expect(audit).toMatchObject({ action: 'firewall.create', actorName: 'Admin', spaceId });
    expect(audit?.change).toMatchObject({ name: 'shop', mode: 'detect', version: 1, hash: expect.any(String) });
    expect(JSON.stringify(audit?.change)).not.toContain(res.json.token);
  });

  test('the list shows every firewall with 24 hourly buckets and its connector state', async () => {
    const created = await create({ name: 'a-first' });
    const list = await t.read(t.api(as.analyst).spaces[':spaceId'].firewalls.$get({ param: { spaceId } }));
    expect(list.status).toBe(200);
    expect(list.json.items[0]).toMatchObject({
      id: created.id,
      name: 'a-first',
      version: 1,
      events24h: 0,
      blocked24h: 0,
    });
    expect(list.json.items[0].hourly).toHaveLength(24);
    expect(list.json.items[0].managedRules).toBeUndefined();
  });

  test('the free plan allows one firewall and says which plan lifts it', async () => {
    const free = (await t.read(t.api(as.owner).spaces.$post({ json: { name: 'Free' } }))).json.id;
    const first = await post(minimal, as.owner, free);
    expect(first.status).toBe(201);
    const second = await post(minimal, as.owner, free);
    expect(second.status).toBe(402);
    expect(second.json.error).toEqual({
      code: 'plan_limit',
      message: 'Firewalls on Free: 1 of 1 used; Pro allows 5',
      limit: 'firewalls',
      plan: 'free',
      upgradeTo: 'pro',
    });
  });

  test("the space cards count each space's firewalls", async () => {
    const other = (await t.read(t.api(as.owner).spaces.$post({ json: { name: 'Counted' } }))).json.id;
    await post(minimal, as.owner, other);
    const cards = (await t.read(t.api(as.owner).spaces.$get())).json.items as {
      id: string;
      firewallCount: number;
    }[];
    const expected = await t.db.select().from(firewalls).where(eq(firewalls.spaceId, spaceId));
    expect(cards.find((card) => card.id === other)?.firewallCount).toBe(1);
    expect(cards.find((card) => card.id === spaceId)?.firewallCount).toBe(expected.length);
    expect(expected.length).toBeGreaterThan(1);
  });

  test('PATCH replaces the given keys whole and makes a new version each time; audited with the comment', async () => {
    const fw = await create({ ipDeny: [{ cidr: '203.0.113.9' }], countryBlock: ['RU'] });
    const res = await t.read(
      t.api(as.admin).spaces[':spaceId'].firewalls[':id'].$patch({
        param: { spaceId, id: fw.id },
        json: { version: 1, mode: 'block', countryBlock: ['CN', 'KP'], comment: 'block mode' },
      }),
    );
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      version: 2,
      mode: 'block',
      countryBlock: ['CN', 'KP'],
      ipDeny: [{ cidr: '203.0.113.9/32' }],
      name: 'shop',
    });
    const again = await t.read(
      t
        .api(as.owner)
        .spaces[':spaceId'].firewalls[':id'].$patch({ param: { spaceId, id: fw.id }, json: { ipDeny: [] } }),
    );
    expect(again.json).toMatchObject({ version: 3, ipDeny: [], countryBlock: ['CN', 'KP'] });
    const actions = await audits(fw.id);
    expect(actions.map((a) => a.action)).toEqual(['firewall.create', 'firewall.update', 'firewall.update']);
    expect(actions[1]?.change).toMatchObject({
      fromVersion: 1,
      version: 2,
      keys: ['mode', 'countryBlock'],
      mode: { from: 'detect', to: 'block' },
      comment: 'block mode',
    });
  });

  test('a save from a stale version answers 409 naming both versions and who saved, with the current firewall', async () => {
    const fw = await create();
    const mine = await t.read(
      t.api(as.owner).spaces[':spaceId'].firewalls[':id'].$patch({
        param: { spaceId, id: fw.id },
        json: { version: 1, mode: 'block' },
      }),
    );
    expect(mine.status).toBe(200);
    const stale = await t.read(
      t.api(as.admin).spaces[':spaceId'].firewalls[':id'].$patch({
        param: { spaceId, id: fw.id },
        json: { version: 1, mode: 'off' },
      }),
    );
    expect(stale.status).toBe(409);
    expect(stale.json.error.code).toBe('version_conflict');
    expect(stale.json.error.message).toMatch(/version 1\b.*Olive saved version 2/);
    expect(stale.json.error.current).toMatchObject({ id: fw.id, version: 2, mode: 'block' });
    expect(
      (await t.read(t.api(as.viewer).spaces[':spaceId'].firewalls[':id'].$get({ param: { spaceId, id: fw.id } }))).json,
    ).toMatchObject({ version: 2 });
  });

  test('two saves from the same version at once: one makes version 2, the other answers 409', async () => {
    const fw = await create();
    const answers = await Promise.all((['block', 'off'] as const).map((mode) => patch(fw.id, { version: 1, mode })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    const list = await t.read(
      t.api(as.viewer).spaces[':spaceId'].firewalls[':id'].versions.$get({ param: { spaceId, id: fw.id } }),
    );
    expect(list.json.items.map((v: { version: number }) => v.version)).toEqual([2, 1]);
  });

  test('versions: the list, each version with its settings and files, and rollback as a new version', async () => {
    const fw = await create({ mode: 'detect' });
    await t.read(
      t.api(as.admin).spaces[':spaceId'].firewalls[':id'].$patch({
        param: { spaceId, id: fw.id },
        json: { mode: 'block', comment: 'enforce' },
      }),
    );
    await t.read(
      t.api(as.admin).spaces[':spaceId'].firewalls[':id'].$patch({
        param: { spaceId, id: fw.id },
        json: { hostnames: ['www.example.com'] },
      }),
    );
    const list = await t.read(
      t.api(as.viewer).spaces[':spaceId'].firewalls[':id'].versions.$get({ param: { spaceId, id: fw.id } }),
    );
    expect(list.status).toBe(200);
    expect(list.json.items.map((v: { version: number }) => v.version)).toEqual([3, 2, 1]);
    expect(list.json.items[1]).toMatchObject({
      version: 2,
      comment: 'enforce',
      author: { name: 'Admin', id: expect.any(String) },
      hash: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    const one = await t.read(
      t
        .api(as.analyst)
        .spaces[':spaceId'].firewalls[':id'].versions[':version'].$get({ param: { spaceId, id: fw.id, version: '1' } }),
    );
    expect(one.status).toBe(200);
    expect(one.json.settings).toMatchObject({ mode: 'detect', hostnames: ['shop.example.com'] });
    expect(Object.keys(one.json.files).length).toBeGreaterThan(0);
    expect(Object.values(one.json.files).join('\n')).toContain('SecRuleEngine DetectionOnly');
    expect(
      (
        await t.read(
          t.api(as.viewer).spaces[':spaceId'].firewalls[':id'].versions[':version'].$get({
            param: { spaceId, id: fw.id, version: '9' },
          }),
        )
      ).status,
    ).toBe(404);

    const rolled = await t.read(
      t
        .api(as.admin)
        .spaces[':spaceId'].firewalls[':id'].rollback.$post({ param: { spaceId, id: fw.id }, json: { version: 1 } }),
    );
    expect(rolled.status).toBe(200);
    expect(rolled.json).toMatchObject({ version: 4, mode: 'detect', hostnames: ['shop.example.com'] });
    const four = await t.read(
      t
        .api(as.viewer)
        .spaces[':spaceId'].firewalls[':id'].versions[':version'].$get({ param: { spaceId, id: fw.id, version: '4' } }),
    );
    expect(four.json.settings).toEqual(one.json.settings);
    expect(four.json.comment).toBe('Rollback to version 1');
    expect((await audits(fw.id)).at(-1)).toMatchObject({
      action: 'firewall.rollback',
      change: expect.objectContaining({ fromVersion: 3, toVersion: 1, version: 4 }),
    });
    const missing = await t.read(
      t
        .api(as.admin)
        .spaces[':spaceId'].firewalls[':id'].rollback.$post({ param: { spaceId, id: fw.id }, json: { version: 12 } }),
    );
    expect(missing.status).toBe(404);
  });

  test('custom rules get ids from the reserved range, kept across versions and never given again', async () => {
    const rule = (name: string): CustomRuleInput => ({
      name,
      enabled: true,
      action: 'block',
      conditions: [{ field: 'header', header: 'X-Attack', operator: 'equals', value: '1' }],
    });
    const fw = await create({ customRules: [rule('a'), rule('b')] });
    const first = customRuleIdRange.first;
    expect(fw.customRules.map((r: { id: number }) => r.id)).toEqual([first, first + 1]);
    // Drop a, keep b by its id, add c: c gets a new id, not a's.
    const next = await t.read(
      t.api(as.admin).spaces[':spaceId'].firewalls[':id'].$patch({
        param: { spaceId, id: fw.id },
        json: { customRules: [rule('c'), fw.customRules[1]] },
      }),
    );
    expect(next.json.customRules.map((r: { name: string; id: number }) => [r.name, r.id])).toEqual([
      ['c', first + 2],
      ['b', first + 1],
    ]);
    const forged = await patch(fw.id, { customRules: [{ ...rule('x'), id: first + 500 }] });
    expect(forged.status).toBe(400);
    expect(forged.json.error.fields).toEqual({ 'customRules.0.id': expect.stringContaining('leave id out') });
    const twice = await patch(fw.id, {
      customRules: [
        { ...rule('x'), id: first + 1 },
        { ...rule('y'), id: first + 1 },
      ],
    });
    expect(twice.json.error.fields).toEqual({ 'customRules.1.id': expect.stringContaining('another rule') });
  });

  test('exclusions and disabled groups are checked against the installed CRS, naming the field', async () => {
    const fw = await create();
    const unknown = await t.read(
      t.api(as.admin).spaces[':spaceId'].firewalls[':id'].$patch({
        param: { spaceId, id: fw.id },
        json: {
          exclusions: [{ ruleId: 942100, path: '/search' }, { ruleId: 920350 }, { ruleId: 123456, comment: 'nope' }],
        },
      }),
    );
    expect(unknown.status).toBe(400);
    expect(unknown.json.error.fields).toEqual({ 'exclusions.2.ruleId': expect.stringContaining('Rule 123456') });
    expect(unknown.json.error.message).toContain('Rule 123456 is not in the installed Core Rule Set');
    const protectedRule = await t.read(
      t.api(as.admin).spaces[':spaceId'].firewalls[':id'].$patch({
        param: { spaceId, id: fw.id },
        json: { exclusions: [{ ruleId: 949110 }, { ruleId: 901200 }] },
      }),
    );
    expect(Object.keys(protectedRule.json.error.fields)).toEqual(['exclusions.0.ruleId', 'exclusions.1.ruleId']);
    const groups = await t.read(
      t.api(as.admin).spaces[':spaceId'].firewalls[':id'].$patch({
        param: { spaceId, id: fw.id },
        json: {
          managedRules: {
            paranoiaLevel: 2,
            inboundThreshold: 5,
            outboundThreshold: 4,
            disabledGroups: [
              'REQUEST-942-APPLICATION-ATTACK-SQLI',
              'REQUEST-999-NOTHING',
              'REQUEST-949-BLOCKING-EVALUATION',
            ],
            applications: [],
          },
        },
      }),
    );
    expect(groups.status).toBe(400);
    expect(groups.json.error.fields).toEqual({
      'managedRules.disabledGroups.1': expect.stringContaining('not a rule group'),
      'managedRules.disabledGroups.2': expect.stringContaining('cannot be turned off'),
    });
    const scalar = await t.read(
      t.api(as.admin).spaces[':spaceId'].firewalls[':id'].$patch({
        param: { spaceId, id: fw.id },
        json: { exclusions: [{ ruleId: 942100, target: 'REQUEST_URI:x' }, { ruleId: 123 }] },
      }),
    );
    expect(scalar.json.error).toMatchObject({
      message: 'Some fields need attention.',
      fields: {
        'exclusions.0.target': expect.stringContaining('REQUEST_URI is one value'),
        'exclusions.1.ruleId': expect.stringContaining('Rule 123 '),
      },
    });
    const fine = await t.read(
      t.api(as.admin).spaces[':spaceId'].firewalls[':id'].$patch({
        param: { spaceId, id: fw.id },
        json: { exclusions: [{ ruleId: 942100, target: 'ARGS:q', path: '/search', method: 'get' }] },
      }),
    );
    expect(fine.status).toBe(200);
    expect(fine.json.exclusions).toEqual([{ ruleId: 942100, target: 'ARGS:q', path: '/search', method: 'GET' }]);
    expect(
      (await t.read(t.api(as.viewer).spaces[':spaceId'].firewalls[':id'].$get({ param: { spaceId, id: fw.id } }))).json
        .version,
    ).toBe(2);
  });

  test('a regex PCRE would not compile is refused naming the rule and the condition; (?i) is fine', async () => {
    const rule = (value: string | string[]): CustomRuleInput => ({
      name: 'scanners',
      enabled: true,
      action: 'block',
      conditions: [
        { field: 'method', operator: 'equals', value: 'GET' },
        { field: 'userAgent', operator: 'regex', value },
      ],
    });
    const fw = await create();
    const bad = await patch(fw.id, { customRules: [rule('(sqlmap')] });
    expect(bad.status).toBe(400);
    expect(bad.json.error.fields).toEqual({
      'customRules.0.conditions.1.value': expect.stringMatching(/^Rule "scanners", condition 2: .*compile/),
    });
    const listed = await patch(fw.id, { customRules: [rule(['nikto', 'a{2,1}'])] });
    expect(Object.keys(listed.json.error.fields)).toEqual(['customRules.0.conditions.1.value.1']);
    const fine = await patch(fw.id, { customRules: [rule('(?i)sqlmap|nikto')] });
    expect(fine.status).toBe(200);
  });

  test.each([
    ['hostnames', { hostnames: ['shop.example.com;'] }, 'hostnames.0'],
    ['hostnames', { hostnames: ['a.example.com}'] }, 'hostnames.0'],
    ['upstream', { upstream: 'http://127.0.0.1:3000; return 200' }, 'upstream'],
    ['upstream', { upstream: 'http://a"b:80' }, 'upstream'],
    ['name', { name: 'shop\nSecRuleEngine Off' }, 'name'],
    ['exclusion target', { exclusions: [{ ruleId: 942100, target: 'ARGS:"q"' }] }, 'exclusions.0.target'],
    ['exclusion path', { exclusions: [{ ruleId: 942100, path: '/a"b' }] }, 'exclusions.0.path'],
    ['exclusion path', { exclusions: [{ ruleId: 942100, path: '/a\n}' }] }, 'exclusions.0.path'],
    ['exclusion method', { exclusions: [{ ruleId: 942100, method: 'GET;' }] }, 'exclusions.0.method'],
    [
      'condition header',
      {
        customRules: [
          {
            name: 'r',
            enabled: true,
            action: 'block',
            conditions: [{ field: 'header', header: 'x"y', operator: 'equals', value: '1' }],
          },
        ],
      },
      'customRules.0.conditions.0.header',
    ],
    [
      'condition value',
      {
        customRules: [
          {
            name: 'r',
            enabled: true,
            action: 'log',
            conditions: [{ field: 'path', operator: 'contains', value: 'a\n}' }],
          },
        ],
      },
      'customRules.0.conditions.0.value',
    ],
    [
      'rate limit path',
      { rateLimits: [{ path: '/login"', requests: 5, windowSeconds: 60, action: 'block' }] },
      'rateLimits.0.path',
    ],
    [
      'rate limit path',
      { rateLimits: [{ path: '/a}', requests: 5, windowSeconds: 60, action: 'block' }] },
      'rateLimits.0.path',
    ],
    ['trusted proxy', { trustedProxies: ['10.0.0.0/8"'] }, 'trustedProxies.0'],
    ['country', { countryBlock: ['F"'] }, 'countryBlock.0'],
    ['unknown key', { nginx: 'include /etc/passwd;' }, 'nginx'],
  ])('a hostile %s is refused naming %s', async (_what, body, field) => {
    const fw = await create();
    const res = await t.raw('PATCH', `${base()}/${fw.id}`, { cookie: as.admin, body });
    expect(res.status).toBe(400);
    expect(Object.keys(res.json.error.fields)).toContain(field);
    expect(
      (await t.read(t.api(as.viewer).spaces[':spaceId'].firewalls[':id'].$get({ param: { spaceId, id: fw.id } }))).json
        .version,
    ).toBe(1);
  });

  test('an upstream with a control character is refused with 400 naming the field and the character', async () => {
    const made = await post({ ...minimal, name: 'tabbed', upstream: 'http://127.0.0.1:30\t00' });
    expect(made.status).toBe(400);
    expect(made.json.error.fields).toEqual({
      upstream: 'Use an upstream URL without control characters: character 20 is a tab.',
    });
    const fw = await create();
    const edited = await t.read(
      t.api(as.admin).spaces[':spaceId'].firewalls[':id'].$patch({
        param: { spaceId, id: fw.id },
        json: { upstream: 'http://127.0.0.1:30\n00' },
      }),
    );
    expect(edited.status).toBe(400);
    expect(edited.json.error.fields).toEqual({
      upstream: 'Use an upstream URL without control characters: character 20 is a line break.',
    });
    const read = await t.read(
      t.api(as.viewer).spaces[':spaceId'].firewalls[':id'].$get({ param: { spaceId, id: fw.id } }),
    );
    expect(read.json).toMatchObject({ version: 1, upstream: 'http://127.0.0.1:3000' });
  });

  test('a rate limit nginx cannot count is refused at its window, also one saved before the rule', async () => {
    const fw = await create();
    const slow = await t.read(
      t.api(as.admin).spaces[':spaceId'].firewalls[':id'].$patch({
        param: { spaceId, id: fw.id },
        json: { rateLimits: [{ path: '/login', requests: 5, windowSeconds: 3600, action: 'block' }] },
      }),
    );
    expect(slow.status).toBe(400);
    expect(slow.json.error.fields).toEqual({
      'rateLimits.0.windowSeconds':
        'nginx cannot count 5 requests per 3,600 s: the slowest rate it enforces is 1 request per 60 s, so 5 requests need a window of at most 300 s.',
    });
    // Stored by an older release, which compiled it to 1r/m: a save of another setting names it instead.
    const [row] = await t.db.select().from(firewalls).where(eq(firewalls.id, fw.id));
    const legacy = [{ path: '/feed', requests: 2, windowSeconds: 7, action: 'log' as const }];
    await t.db
      .update(firewalls)
      .set({ settings: { ...(row?.settings ?? fw), rateLimits: legacy } })
      .where(eq(firewalls.id, fw.id));
    const other = await t.read(
      t
        .api(as.admin)
        .spaces[':spaceId'].firewalls[':id'].$patch({ param: { spaceId, id: fw.id }, json: { mode: 'block' } }),
    );
    expect(other.status).toBe(400);
    expect(other.json.error.fields).toEqual({
      'rateLimits.0.windowSeconds':
        'nginx counts whole requests a second or a minute, and 2 requests per 7 s is 17.14 a minute: use a window of 8 s for 2 requests, or 17 per 60 s.',
    });
    const fixed = await patch(fw.id, {
      mode: 'block',
      rateLimits: [{ path: '/feed', requests: 2, windowSeconds: 6, action: 'log' }],
    });
    expect(fixed.status).toBe(200);
    const saved = await t.read(
      t.api(as.viewer).spaces[':spaceId'].firewalls[':id'].versions[':version'].$get({
        param: { spaceId, id: fw.id, version: fixed.json.version },
      }),
    );
    expect(saved.json.files['http.conf']).toContain('rate=20r/m;');
  });

  test('a name with quotes, semicolons and braces is kept as text; a path with ; is quoted in nginx', async () => {
    const fw = await create({
      name: 'shop "main"; } {',
      rateLimits: [{ path: '/a;b', requests: 5, windowSeconds: 60, action: 'block' }],
    });
    expect(fw.name).toBe('shop "main"; } {');
    const files = (
      await t.read(
        t.api(as.viewer).spaces[':spaceId'].firewalls[':id'].versions[':version'].$get({
          param: { spaceId, id: fw.id, version: '1' },
        }),
      )
    ).json.files;
    expect(files['server.conf']).toContain('location "/a;b" {');
  });

  test('delete needs the name typed; it is audited and the token stops working', async () => {
    const fw = await create({ name: 'to go' });
    const wrong = await t.read(
      t
        .api(as.admin)
        .spaces[':spaceId'].firewalls[':id'].$delete({ param: { spaceId, id: fw.id }, json: { confirmName: 'to g' } }),
    );
    expect(wrong.status).toBe(400);
    expect(wrong.json.error.fields).toEqual({ confirmName: expect.any(String) });
    const gone = await t.read(
      t
        .api(as.admin)
        .spaces[':spaceId'].firewalls[':id'].$delete({ param: { spaceId, id: fw.id }, json: { confirmName: 'to go' } }),
    );
    expect(gone.json).toEqual({ ok: true });
    expect(
      (await t.read(t.api(as.owner).spaces[':spaceId'].firewalls[':id'].$get({ param: { spaceId, id: fw.id } })))
        .status,
    ).toBe(404);
    expect((await connectorConfig(fw.token)).status).toBe(401);
    expect((await audits(fw.id)).map((a) => a.action)).toEqual(['firewall.create', 'firewall.delete']);
  });

  test('token rotation answers a new token once, is audited, and the old one is refused by the connector API', async () => {
    const fw = await create();
    expect((await connectorConfig(fw.token)).status).toBe(200);
    const rotated = await t.read(
      t.api(as.admin).spaces[':spaceId'].firewalls[':id'].token.$post({ param: { spaceId, id: fw.id } }),
    );
    expect(rotated.status).toBe(200);
    expect(rotated.json.token).not.toBe(fw.token);
    expect(rotated.json.tokenPrefix).not.toBe(fw.tokenPrefix);
    const old = await connectorConfig(fw.token);
    expect(old.status).toBe(401);
    expect(old.json.error.code).toBe('bad_firewall_token');
    expect((await connectorConfig(rotated.json.token)).status).toBe(200);
    const [audit] = await t.db
      .select()
      .from(activity)
      .where(and(eq(activity.action, 'firewall.token_rotate'), eq(activity.objectId, fw.id)));
    expect(JSON.stringify(audit?.change)).not.toContain(rotated.json.token);
  });

  test.each([
    ['viewer', 'GET', '', 200],
    ['analyst', 'GET', '/ID', 200],
    ['analyst', 'GET', '/ID/versions', 200],
    ['viewer', 'GET', '/ID/versions/1', 200],
    ['viewer', 'POST', '', 403],
    ['analyst', 'POST', '', 403],
    ['analyst', 'PATCH', '/ID', 403],
    ['analyst', 'DELETE', '/ID', 403],
    ['analyst', 'POST', '/ID/rollback', 403],
    ['analyst', 'POST', '/ID/token', 403],
    ['viewer', 'POST', '/ID/token', 403],
    ['admin', 'PATCH', '/ID', 200],
    ['owner', 'POST', '/ID/rollback', 200],
    ['admin', 'DELETE', '/ID', 200],
  ] as const)('%s %s firewalls%s answers %s', async (role, method, suffix, expected) => {
    const fw = await create({ name: 'roles' });
    const bodies: Record<string, unknown> = {
      POST: suffix === '' ? minimal : suffix.endsWith('rollback') ? { version: 1 } : undefined,
      PATCH: { mode: 'off' },
      DELETE: { confirmName: 'roles' },
    };
    const bodyValue = bodies[method];
    const res = await t.raw(method, `${base()}${suffix.replace('ID', fw.id)}`, {
      cookie: as[role],
      ...(bodyValue !== undefined ? { body: bodyValue } : {}),
    });
    expect(res.status).toBe(expected);
  });

  test('another space and a non-member see 404', async () => {
    const fw = await create();
    const outsider = (await t.signUp('out@example.com')).cookie;
    expect((await t.read(t.api(outsider).spaces[':spaceId'].firewalls.$get({ param: { spaceId } }))).status).toBe(404);
    const theirs = (await t.read(t.api(outsider).spaces.$post({ json: { name: 'Theirs' } }))).json.id;
    expect(
      (
        await t.read(
          t.api(outsider).spaces[':spaceId'].firewalls[':id'].$get({ param: { spaceId: theirs, id: fw.id } }),
        )
      ).status,
    ).toBe(404);
    expect(
      (
        await t.read(
          t.api(outsider).spaces[':spaceId'].firewalls[':id'].versions[':version'].$get({
            param: { spaceId: theirs, id: fw.id, version: '1' },
          }),
        )
      ).status,
    ).toBe(404);
    expect(
      (
        await t.read(
          t.api(outsider).spaces[':spaceId'].firewalls[':id'].rollback.$post({
            param: { spaceId: theirs, id: fw.id },
            json: { version: 1 },
          }),
        )
      ).status,
    ).toBe(404);
  });
});
