import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { runAlertJobs, spaceWithAnalyst } from '../shared/test-alerts.ts';
import { startTestApi, stubModalDialogs, type TestUser, visit } from '../shared/test-api.ts';
import WafAlertScreen from './WafAlertScreen.tsx';

vi.setConfig({ testTimeout: 30_000, hookTimeout: 120_000 });

let api: Awaited<ReturnType<typeof startTestApi>>;
let owner: TestUser;
let viewer: TestUser;
let spaceId: string;
let firewallId: string;
let alertId: string;

/** A ModSecurity v3 audit record of a blocked SQL injection, as the connector ships it, `secondsAgo` old. */
function auditRecord(secondsAgo: number, id: string) {
  const at = new Date(Date.now() - secondsAgo * 1_000);
  const stamp = at.toUTCString().replace(/^(\w+), (\d+) (\w+) (\d+) ([\d:]+) GMT$/, '$1 $3 $2 $5 $4');
  return JSON.stringify({
    transaction: {
      client_ip: '198.51.100.23',
      time_stamp: stamp,
      unique_id: id,
      request: {
        method: 'GET',
        uri: '/products?id=1%27%20or%201=1--&page=2',
        headers: { Host: 'shop.example.test', 'User-Agent': 'sqlmap/1.7' },
      },
      response: { http_code: 403, headers: {} },
      messages: [
        {
          message: 'SQL Injection Attack Detected via libinjection',
          details: {
            ruleId: '942100',
            data: "Matched Data: s&1c found within ARGS:id: 1' or 1=1--",
            severity: '2',
            tags: ['attack-sqli'],
          },
        },
        {
          message: 'Inbound Anomaly Score Exceeded (Total Score: 5)',
          details: { ruleId: '949110', data: '', severity: '2', tags: ['attack-generic'] },
        },
      ],
    },
  });
}

beforeAll(async () => {
  stubModalDialogs();
  api = await startTestApi();
  const space = await spaceWithAnalyst(api);
  ({ owner, viewer, spaceId } = space);
  const firewall = await api.call('POST', `/spaces/${spaceId}/firewalls`, owner.cookie, {
    name: 'shop',
    hostnames: ['shop.example.test'],
    upstream: 'http://127.0.0.1:3000',
    mode: 'detect',
  });
  firewallId = firewall.json.id;
  await api.call('POST', `/spaces/${spaceId}/alert-rules`, owner.cookie, {
    name: 'SQLi at the shop',
    severity: 'critical',
    kind: 'match',
    query: `firewall:${firewallId} tag:attack-sqli`,
    groupBy: ['ip'],
    titleTemplate: 'SQL injection from {ip}',
  });
  const sent = await api.app.request(`${location.origin}/api/connector/events`, {
    method: 'POST',
    headers: { authorization: `Bearer ${firewall.json.token}`, 'content-type': 'application/x-ndjson' },
    body: [auditRecord(30, 'a1'), auditRecord(20, 'a2')].join('\n'),
  });
  expect(sent.status).toBe(200);
  await runAlertJobs(api);
  const list = await api.call('GET', `/spaces/${spaceId}/alerts`, owner.cookie);
  alertId = list.json.items[0].id;
});
afterAll(async () => {
  await api.stop();
});

async function open(user: TestUser) {
  await api.signInAs(user);
  visit(`/console/alerts/waf/${spaceId}/${firewallId}/${alertId}`);
  const view = render(<WafAlertScreen />);
  await screen.findByRole('heading', { name: 'SQL injection from 198.51.100.23' });
  return view;
}

describe('WafAlertScreen', () => {
  test('shows the triggering requests with their arguments and matched rules, and the firewall’s mode then and now', async () => {
    await open(viewer);
    const requests = screen.getByRole('table', { name: /Requests that triggered this alert/ });
    const rows = within(requests).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    const first = rows[0] as HTMLElement;
    expect(within(first).getByText('GET shop.example.test/products')).toBeTruthy();
    expect(within(first).getByText("id=1' or 1=1--")).toBeTruthy();
    expect(within(first).getByText('page=2')).toBeTruthy();
    expect(within(first).getByText(/SQL Injection Attack Detected via libinjection/)).toBeTruthy();
    expect(within(first).getByText("Matched Data: s&1c found within ARGS:id: 1' or 1=1--")).toBeTruthy();
    const facts = screen.getByText('Mode now').closest('dl') as HTMLElement;
    expect(within(facts).getByText('Detect only (version 1)')).toBeTruthy();
    expect(within(facts).getByRole('link', { name: 'shop' }).getAttribute('href')).toBe(
      `/console/firewall/config/${spaceId}/${firewallId}`,
    );
    // Viewers see the remedies' previews but cannot triage.
    expect(screen.queryByRole('button', { name: 'Acknowledge' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Block 198.51.100.23' })).toBeTruthy();
    // The anomaly-score rule decides blocking: it is never offered for an exclusion.
    expect(screen.getByRole('button', { name: 'Exclude rule 942100 on /products' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Exclude rule 949110/ })).toBeNull();
  });

  test('an admin blocks the address: the preview counts the requests, then the firewall has a new version', async () => {
    await open(owner);
    await userEvent.click(screen.getByRole('button', { name: 'Block 198.51.100.23' }));
    const dialog = await screen.findByRole('dialog', { name: 'Block an IP address' });
    expect(
      await within(dialog).findByText('Would have affected 2 requests from 1 IP in the last 7 days.'),
    ).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Apply as version 2 of shop' }));
    expect(await within(dialog).findByText(/Version 2 of “shop” is saved/)).toBeTruthy();
    const firewall = await api.call('GET', `/spaces/${spaceId}/firewalls/${firewallId}`, owner.cookie);
    expect(firewall.json.version).toBe(2);
    expect(firewall.json.ipDeny.map((entry: { cidr: string }) => entry.cidr)).toEqual(['198.51.100.23/32']);
  });

  test('an alert that is not this firewall’s answers as not found', async () => {
    await api.signInAs(viewer);
    visit(`/console/alerts/waf/${spaceId}/${spaceId}/${alertId}`);
    render(<WafAlertScreen />);
    expect(await screen.findByText(/does not exist, its events came from another firewall/)).toBeTruthy();
  });
});
