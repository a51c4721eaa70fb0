import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { dashboardTemplates } from '../contract/constants/dashboard-templates.ts';
import type { Role } from '../contract/constants/roles.ts';
import { defaultFirewallSettings } from '../contract/firewalls.ts';
import { atLeast } from '../contract/roles.ts';
import { alertRules, alerts } from './db/schema/alerts.ts';
import { invoices, paymentMethods, subscriptions } from './db/schema/billing.ts';
import { dashboards } from './db/schema/dashboards.ts';
import { firewalls, firewallVersions } from './db/schema/firewalls.ts';
import { invitations } from './db/schema/invitations.ts';
import { memberships } from './db/schema/memberships.ts';
import { savedSearches } from './db/schema/saved-searches.ts';
import { sources } from './db/schema/sources.ts';
import { spaces } from './db/schema/spaces.ts';
import { triageRecords } from './db/schema/triage.ts';
import { assetComponents, assets, findings, vulnImports, vulnRefs } from './db/schema/vulns.ts';
import { createDefaultDashboard } from './services/dashboards/defaults.ts';
import { createTestApi, type TestApi } from './test/harness.ts';
import { storeEvents } from './test/stored-events.ts';

/**
 * Walks every operation of the OpenAPI document as anonymous, non-member, viewer, analyst, admin and owner
 * and checks each answer against the role table of docs/product.md §2: no leak, no 5xx.
 */
vi.setConfig({ testTimeout: 300_000, hookTimeout: 120_000 });

type Caller = 'anonymous' | 'nonMember' | Role;
const callers: Caller[] = ['anonymous', 'nonMember', 'viewer', 'analyst', 'admin', 'owner'];
type Operation = { method: string; path: string; access: string; hiddenBelow: boolean };

let t: TestApi;
const cookies: Partial<Record<Caller | 'owner2' | 'target', string>> = {};
const ids: Partial<Record<Caller | 'owner2' | 'target', string>> = {};
const emails: Record<string, string> = {
  nonMember: 'x@example.com',
  viewer: 'v@example.com',
  analyst: 'n@example.com',
  admin: 'a@example.com',
  owner: 'o@example.com',
  owner2: 'o2@example.com',
  target: 't@example.com',
};

beforeAll(async () => {
  t = await createTestApi();
  for (const [who, email] of Object.entries(emails)) {
    const { cookie, user } = await t.signUp(email);
    cookies[who as Caller] = cookie;
    ids[who as Caller] = user.id;
  }
});
afterAll(async () => {
  await t.close();
});

const SECRET_NAME = 'Zebra-Secret-Space-7731';

const FIREWALL_NAME = 'edge firewall';

/** The fixture's library record: an OSV id with a colon, as some databases write them. */
const VULN_REF_ID = 'RHSA-2024:0001';

/** A fresh space per check: owners O and O2, admin, analyst, viewer, target viewer T, one invitation, one source, one firewall (version 1). */
async function fixture() {
  const now = t.deps.now();
  const [space] = await t.db
    .insert(spaces)
    .values({
      name: SECRET_NAME,
      description: 'confidential description',
      plan: 'business',
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  if (!space) throw new Error('no space');
  const roles: [string | undefined, Role][] = [
    [ids.owner, 'owner'],
    [ids.owner2, 'owner'],
    [ids.admin, 'admin'],
    [ids.analyst, 'analyst'],
    [ids.viewer, 'viewer'],
    [ids.target, 'viewer'],
  ];
  await t.db
    .insert(memberships)
    .values(roles.map(([userId, role]) => ({ spaceId: space.id, userId: userId ?? '', role, createdAt: now })));
  const [invitation] = await t.db
    .insert(invitations)
    .values({
      spaceId: space.id,
      email: 'pending@example.com',
      role: 'viewer',
      tokenHash: randomUUID(),
      expiresAt: new Date(Date.now() + 86_400_000),
      createdAt: now,
    })
    .returning();
  const [source] = await t.db
    .insert(sources)
    .values({
      spaceId: space.id,
      name: 'edge',
      kind: 'json',
      tokenHash: randomUUID(),
      tokenPrefix: 'sgi_x',
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  const [event] = await storeEvents(t.db, [
    {
      spaceId: space.id,
      sourceId: source?.id ?? '',
      time: new Date(),
      receivedAt: now,
      action: 'blocked',
      severity: 'high',
    },
  ]);
  const [savedSearch] = await t.db
    .insert(savedSearches)
    .values({
      spaceId: space.id,
      name: 'blocked',
      query: 'action:blocked',
      range: '24h',
      createdByName: 'O',
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  // The space's default dashboard, and another one the {id} paths name (the default cannot be deleted).
  await createDefaultDashboard(t.db, space.id, null, now);
  const attacks = dashboardTemplates.attacks.model;
  const [dashboard] = await t.db
    .insert(dashboards)
    .values({
      spaceId: space.id,
      title: attacks.title,
      model: attacks,
      version: 1,
      isDefault: false,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  const settings = {
    ...defaultFirewallSettings,
    name: FIREWALL_NAME,
    hostnames: ['shop.example.com'],
    upstream: 'http://127.0.0.1:3000',
    mode: 'detect' as const,
  };
  const [firewall] = await t.db
    .insert(firewalls)
    .values({
      spaceId: space.id,
      name: FIREWALL_NAME,
      settings,
      version: 1,
      tokenHash: randomUUID(),
      tokenPrefix: 'sgf_x',
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  await t.db.insert(firewallVersions).values({
    firewallId: firewall?.id ?? '',
    version: 1,
    settings,
    files: { 'modsecurity.conf': '#' },
    hash: 'h1',
    createdAt: now,
  });
  const [alertRule] = await t.db
    .insert(alertRules)
    .values({
      spaceId: space.id,
      name: 'blocked',
      severity: 'high',
      kind: 'match',
      query: 'action:blocked',
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  const [alert] = await t.db
    .insert(alerts)
    .values({
      spaceId: space.id,
      ruleId: alertRule?.id ?? null,
      ruleName: 'blocked',
      kind: 'match',
      severity: 'high',
      title: 'blocked',
      firstSeen: new Date(),
      lastSeen: new Date(),
      firewallId: firewall?.id ?? null,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  const [suppression] = await t.db
    .insert(triageRecords)
    .values({
      spaceId: space.id,
      subjectType: 'alert_rule',
      subjectId: alertRule?.id ?? '',
      decision: 'suppressed',
      scope: { groupKey: '' },
      until: new Date(Date.now() + 86_400_000),
      at: now,
    })
    .returning();
  const [asset] = await t.db
    .insert(assets)
    .values({
      spaceId: space.id,
      name: 'shop',
      kind: 'application',
      firewallId: firewall?.id ?? null,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  await t.db.insert(assetComponents).values({
    assetId: asset?.id ?? '',
    key: 'npm:lodash@4.17.20',
    purl: 'pkg:npm/lodash@4.17.20',
    ecosystem: 'npm',
    name: 'lodash',
    packageKey: 'npm:lodash',
    version: '4.17.20',
  });
  await t.db.insert(vulnRefs).values({
    spaceId: space.id,
    id: VULN_REF_ID,
    modified: new Date('2024-01-01T00:00:00Z'),
    record: { id: VULN_REF_ID, modified: '2024-01-01T00:00:00Z' },
    importedAt: now,
  });
  const [vulnImport] = await t.db
    .insert(vulnImports)
    .values({ spaceId: space.id, status: 'done', contentType: 'application/json', createdAt: now })
    .returning();
  const [finding] = await t.db
    .insert(findings)
    .values({
      spaceId: space.id,
      assetId: asset?.id ?? '',
      componentKey: 'npm:lodash@4.17.20',
      ecosystem: 'npm',
      packageName: 'lodash',
      version: '4.17.20',
      vulnId: VULN_REF_ID,
      severity: 'high',
      firstSeen: new Date(),
      lastSeen: new Date(),
      updatedAt: now,
    })
    .returning();
  // A paid Business subscription (the fixture's plan), its card and its first invoice.
  const periodStart = new Date(Date.now() - 86_400_000);
  const periodEnd = new Date(Date.now() + 29 * 86_400_000);
  const [paymentMethod] = await t.db
    .insert(paymentMethods)
    .values({
      spaceId: space.id,
      providerToken: 'pm_test_x',
      brand: 'Visa',
      last4: '4242',
      behaviour: 'success',
      createdAt: now,
    })
    .returning();
  await t.db.insert(subscriptions).values({
    spaceId: space.id,
    plan: 'business',
    interval: 'month',
    periodStart,
    periodEnd,
    paymentMethodId: paymentMethod?.id ?? null,
    createdAt: now,
    updatedAt: now,
  });
  const [invoice] = await t.db
    .insert(invoices)
    .values({
      spaceId: space.id,
      number: 1,
      kind: 'subscribe',
      plan: 'business',
      interval: 'month',
      periodStart,
      periodEnd,
      lines: [],
      totalCents: 29_900,
      status: 'paid',
      providerPaymentId: 'pi_test_x',
      cardBrand: 'Visa',
      cardLast4: '4242',
      createdAt: periodStart,
    })
    .returning();
  return {
    spaceId: space.id,
    invoiceId: invoice?.id ?? '',
    assetId: asset?.id ?? '',
    vulnImportId: vulnImport?.id ?? '',
    findingId: finding?.id ?? '',
    alertRuleId: alertRule?.id ?? '',
    alertId: alert?.id ?? '',
    suppressionId: suppression?.id ?? '',
    invitationId: invitation?.id ?? '',
    sourceId: source?.id ?? '',
    eventId: event?.id ?? '',
    savedSearchId: savedSearch?.id ?? '',
    dashboardId: dashboard?.id ?? '',
    firewallId: firewall?.id ?? '',
  };
}

/** A body an allowed caller would send successfully, naming the fixture's objects (its alert, its firewall). */
function sampleBody(op: Operation, fx: { alertId: string; firewallId: string; findingId: string }): unknown {
  const { firewallId, findingId } = fx;
  const key = `${op.method} ${op.path}`;
  const samples: Record<string, unknown> = {
    'post /api/auth/register': { name: 'New', email: `new-${randomUUID()}@example.com`, password: 'correct horse 42' },
    'post /api/auth/activate': { token: 'x'.repeat(43) },
    'post /api/auth/activate/resend': { email: 'nobody@example.com' },
    'post /api/auth/login': { email: 'nobody@example.com', password: 'nope' },
    'post /api/auth/forgot': { email: 'nobody@example.com' },
    'post /api/auth/reset': { token: 'x'.repeat(43), password: 'correct horse 42' },
    'post /api/auth/confirm-email': { token: 'x'.repeat(43) },
    'patch /api/me': { colorMode: 'dark' },
    'post /api/me/tokens': { name: 'ci' },
    'post /api/spaces': { name: 'Mine' },
    'patch /api/spaces/{spaceId}': { description: 'changed' },
    'delete /api/spaces/{spaceId}': { confirmName: SECRET_NAME },
    'post /api/spaces/{spaceId}/transfer': { userId: ids.target },
    'patch /api/spaces/{spaceId}/members/{userId}': { role: 'analyst' },
    'post /api/spaces/{spaceId}/invitations': { email: `inv-${randomUUID()}@example.com`, role: 'viewer' },
    'post /api/spaces/{spaceId}/sources': { name: 'edge', kind: 'modsecurity' },
    'patch /api/spaces/{spaceId}/sources/{id}': { name: 'renamed' },
    'post /api/spaces/{spaceId}/sources/{id}/test': { sample: '{"time":"2026-11-21T10:00:00Z"}' },
    'post /api/spaces/{spaceId}/saved-searches': { name: 'mine', query: 'action:blocked', range: '24h' },
    'post /api/spaces/{spaceId}/query': {
      query: { metric: 'count', groupBy: { kind: 'field', field: 'country' }, filter: 'action:blocked' },
      from: 'now-24h',
      to: 'now',
    },
    'patch /api/spaces/{spaceId}/saved-searches/{id}': { name: 'renamed' },
    'post /api/spaces/{spaceId}/dashboards': dashboardTemplates.overview.model,
    'put /api/spaces/{spaceId}/dashboards/{id}': { ...dashboardTemplates.attacks.model, title: 'Changed', version: 1 },
    'post /api/spaces/{spaceId}/dashboards/{id}/duplicate': {},
    'post /api/spaces/{spaceId}/firewalls': {
      name: 'new',
      hostnames: ['new.example.com'],
      upstream: 'http://127.0.0.1:8080',
      mode: 'detect',
    },
    'patch /api/spaces/{spaceId}/firewalls/{id}': { version: 1, mode: 'block', comment: 'enforce' },
    'delete /api/spaces/{spaceId}/firewalls/{id}': { confirmName: FIREWALL_NAME },
    'post /api/spaces/{spaceId}/firewalls/{id}/rollback': { version: 1 },
    'post /api/spaces/{spaceId}/alert-rules': { name: `rule ${randomUUID()}`, severity: 'low', kind: 'match' },
    'post /api/spaces/{spaceId}/alert-rules/preview': { kind: 'match', query: 'action:blocked' },
    'post /api/spaces/{spaceId}/alerts/bulk': { ids: [fx.alertId], status: 'acknowledged' },
    'patch /api/spaces/{spaceId}/alerts/{id}': { status: 'acknowledged', reason: 'seen' },
    'post /api/spaces/{spaceId}/alerts/{id}/notes': { body: 'Looked at it.' },
    'post /api/spaces/{spaceId}/alerts/{id}/suppress': { days: 1, reason: 'our scanner' },
    'post /api/spaces/{spaceId}/assets': {
      name: `asset ${randomUUID()}`,
      kind: 'host',
      components: [{ purl: 'pkg:npm/qs@6.7.0' }],
    },
    'patch /api/spaces/{spaceId}/assets/{id}': {
      firewallId,
      sbom: { bomFormat: 'CycloneDX', specVersion: '1.5', components: [{ name: 'qs', purl: 'pkg:npm/qs@6.7.0' }] },
    },
    'post /api/spaces/{spaceId}/vuln-refs': { id: 'GHSA-iso0-0000-0000', modified: '2024-02-01T00:00:00Z' },
    'post /api/spaces/{spaceId}/assessments': {},
    'post /api/spaces/{spaceId}/findings/bulk': {
      ids: [findingId],
      status: 'not_affected',
      justification: 'code_not_present',
    },
    'patch /api/spaces/{spaceId}/findings/{id}': { status: 'not_affected', justification: 'code_not_reachable' },
    'post /api/spaces/{spaceId}/findings/{id}/virtual-patch/preview': {
      kind: 'custom-rule',
      firewallId,
      path: '/api/upload',
    },
    'post /api/spaces/{spaceId}/findings/{id}/virtual-patch': { kind: 'custom-rule', firewallId, path: '/api/upload' },
    'post /api/spaces/{spaceId}/subscription/checkout/preview': { plan: 'pro', interval: 'month' },
    'post /api/spaces/{spaceId}/subscription/checkout': { plan: 'pro', interval: 'month' },
    'post /api/spaces/{spaceId}/waf-remedies/preview': {
      kind: 'block-ip',
      firewallId,
      ip: '192.0.2.1',
      durationMinutes: 60,
    },
    'post /api/spaces/{spaceId}/waf-remedies': {
      kind: 'block-ip',
      firewallId,
      ip: '192.0.2.1',
      durationMinutes: 60,
      version: 1,
    },
  };
  return samples[key];
}

function operations(doc: {
  paths: Record<string, Record<string, { 'x-min-role'?: string; 'x-hidden-below-role'?: boolean }>>;
}): Operation[] {
  return Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({
      method,
      path,
      access: op['x-min-role'] ?? 'missing',
      hiddenBelow: op['x-hidden-below-role'] === true,
    })),
  );
}

test('every operation declares its least access', async () => {
  const doc = (await t.raw('GET', '/api/openapi.json')).json;
  expect(doc.openapi).toBe('3.1.0');
  const ops = operations(doc);
  expect(ops.length).toBeGreaterThan(30);
  for (const op of ops)
    expect(['anonymous', 'user', 'viewer', 'analyst', 'admin', 'owner'], `${op.method} ${op.path}`).toContain(
      op.access,
    );
  const docs = await t.raw('GET', '/api/docs');
  expect(docs.status).toBe(200);
  expect(docs.text).toContain('/api/spaces/{spaceId}/members');
  expect(docs.text).not.toMatch(/<script|https?:\/\/(?!localhost)[a-z]/i);
});

test('the role table holds on every operation for every caller', async () => {
  const doc = (await t.raw('GET', '/api/openapi.json')).json;
  const failures: string[] = [];
  for (const op of operations(doc)) {
    for (const caller of callers) {
      const fx = await fixture();
      const {
        spaceId,
        alertRuleId,
        alertId,
        suppressionId,
        invitationId,
        sourceId,
        eventId,
        savedSearchId,
        dashboardId,
        firewallId,
        assetId,
        vulnImportId,
        findingId,
        invoiceId,
      } = fx;
      const path = op.path
        .replace('{spaceId}', spaceId)
        .replace('{userId}', ids.target ?? '')
        .replace('{invitationId}', invitationId)
        .replace('{eventId}', eventId)
        // Space-scoped {id} paths name the fixture's object of that kind.
        .replace(
          '{id}',
          op.path.includes('/vuln-refs/imports/')
            ? vulnImportId
            : op.path.includes('/vuln-refs/')
              ? encodeURIComponent(VULN_REF_ID)
              : op.path.includes('/sources/')
                ? sourceId
                : op.path.includes('/saved-searches/')
                  ? savedSearchId
                  : op.path.includes('/dashboards/')
                    ? dashboardId
                    : op.path.includes('/firewalls/')
                      ? firewallId
                      : op.path.includes('/alert-rules/')
                        ? alertRuleId
                        : op.path.includes('/assets/')
                          ? assetId
                          : op.path.includes('/findings/')
                            ? findingId
                            : op.path.includes('/alerts/')
                              ? alertId
                              : op.path.includes('/payments/')
                                ? invoiceId
                                : randomUUID(),
        )
        .replace('{suppressionId}', suppressionId)
        .replace('{wafId}', firewallId)
        .replace('{version}', '1')
        .replace('{token}', 'x'.repeat(43));
      const cookie = caller === 'anonymous' ? undefined : cookies[caller];
      const bodyValue = sampleBody(op, fx);
      const res = await t.raw(op.method.toUpperCase(), path, {
        // Checkout needs one; every other operation ignores it.
        headers: { 'idempotency-key': randomUUID() },
        ...(cookie ? { cookie } : {}),
        ...(bodyValue !== undefined ? { body: bodyValue } : {}),
      });
      if (process.env.DEBUG_ISO) console.log(op.method, op.path, op.access, caller, res.status);
      const label = `${op.method.toUpperCase()} ${op.path} as ${caller}: ${res.status} ${res.text.slice(0, 160)}`;
      if (res.status >= 500) failures.push(`5xx: ${label}`);
      if (res.status >= 400 && (res.text.includes(SECRET_NAME) || res.text.includes('confidential'))) {
        failures.push(`leak: ${label}`);
      }
      if (res.status >= 400 && !res.json?.error?.code) failures.push(`error shape: ${label}`);
      if (res.status < 400 && res.text.includes('<script')) failures.push(`script in answer: ${label}`);
      let expected: 'ok' | 401 | 403 | 404 | 'any';
      if (op.access === 'anonymous') expected = 'any';
      else if (caller === 'anonymous') expected = 401;
      else if (op.access === 'user') expected = 'any';
      else if (caller === 'nonMember') expected = 404;
      // Owner-only billing answers weaker roles as it answers non-members (docs/product.md §2).
      else expected = atLeast(caller as Role, op.access as Role) ? 'ok' : op.hiddenBelow ? 404 : 403;
      if (expected === 'ok' && (res.status < 200 || res.status >= 300)) failures.push(`denied: ${label}`);
      if (typeof expected === 'number' && res.status !== expected) failures.push(`expected ${expected}: ${label}`);
      if (
        expected === 'any' &&
        (res.status === 403 || (caller !== 'anonymous' && res.status === 401 && op.access === 'user'))
      ) {
        failures.push(`unexpected refusal: ${label}`);
      }
      // Signing out ends the caller's session: sign in again for the next operations.
      if (op.path === '/api/auth/logout' && caller !== 'anonymous')
        cookies[caller] = (await t.signIn(emails[caller] ?? '')).cookie;
    }
  }
  expect(failures).toEqual([]);
});
