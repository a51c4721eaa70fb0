import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { runAlertJobs, spaceWithAnalyst } from '../shared/test-alerts.ts';
import { startTestApi, stubModalDialogs, type TestUser, visit } from '../shared/test-api.ts';
import { eventLine, ingest } from '../shared/test-ingest.ts';
import AlertsScreen from './AlertsScreen.tsx';

vi.setConfig({ testTimeout: 30_000, hookTimeout: 120_000 });

let api: Awaited<ReturnType<typeof startTestApi>>;
let owner: TestUser;
let viewer: TestUser;
let analyst: TestUser;
let spaceId: string;
let token: string;

const IPS = ['198.51.100.7', '203.0.113.9', '192.0.2.44'] as const;

beforeAll(stubModalDialogs);

beforeAll(async () => {
  api = await startTestApi();
  const space = await spaceWithAnalyst(api);
  ({ owner, viewer, analyst, spaceId, token } = space);
  const rule = (name: string, severity: string, tag: string) =>
    api.call('POST', `/spaces/${spaceId}/alert-rules`, owner.cookie, {
      name,
      severity,
      kind: 'match',
      query: `tag:${tag}`,
      groupBy: ['ip'],
      titleTemplate: `${name} from {ip}`,
    });
  await rule('SQL injection', 'critical', 'attack-sqli');
  await rule('Scanner', 'low', 'scanner');
  const lines = [
    ...IPS.map((ip, index) => eventLine(index + 1, { ip, path: '/search', tags: ['attack-sqli'] })),
    eventLine(2, { ip: IPS[0], path: '/.env', tags: ['scanner'] }),
  ];
  expect((await ingest(api, space.token, lines)).json.accepted).toBe(lines.length);
  await runAlertJobs(api);
  expect((await api.call('GET', `/spaces/${spaceId}/alerts`, owner.cookie)).json.items).toHaveLength(4);
});
afterAll(async () => {
  await api.stop();
});

async function open(user: TestUser, search = '') {
  await api.signInAs(user);
  visit(`/console/alert/${spaceId}${search}`);
  const view = render(<AlertsScreen />);
  return view;
}

describe('AlertsScreen', () => {
  test('a viewer reads the list with the counts by severity, without checkboxes, bulk actions or rule editing', async () => {
    await open(viewer);
    const table = await screen.findByRole('table', { name: 'Alerts' });
    expect(within(table).getAllByRole('link')).toHaveLength(4);
    expect(screen.getByRole('list', { name: 'Alerts by severity' })).toHaveTextContent('3 critical1 low');
    expect(within(table).queryByRole('checkbox')).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Change the selected alerts' })).not.toBeInTheDocument();
    const user = userEvent.setup();
    // The tabs by keyboard: the arrow moves to Rules, selects it and keeps the focus on it.
    screen.getByRole('tab', { name: 'Alerts' }).focus();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'Rules' })).toHaveFocus();
    expect(screen.getByRole('tab', { name: 'Rules' })).toHaveAttribute('aria-selected', 'true');
    expect(location.search).toBe('?tab=rules');
    const rules = await screen.findByRole('table', { name: 'Alert rules' });
    expect(within(rules).queryByRole('switch')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'New rule' })).not.toBeInTheDocument();
  });

  test('filters go to the URL and come back from it', async () => {
    const view = await open(analyst);
    const user = userEvent.setup();
    await screen.findByRole('table', { name: 'Alerts' });
    const filters = screen.getByRole('form', { name: 'Filter alerts' });
    await user.click(within(filters).getByRole('checkbox', { name: 'critical' }));
    await user.click(within(filters).getByRole('checkbox', { name: 'resolved' }));
    await user.selectOptions(within(filters).getByRole('combobox', { name: 'Assignee' }), 'none');
    await user.type(within(filters).getByRole('searchbox', { name: 'Words in the title or group' }), IPS[1]);
    await user.click(within(filters).getByRole('button', { name: 'Search' }));
    expect(Object.fromEntries(new URLSearchParams(location.search))).toEqual({
      status: 'open,acknowledged,resolved',
      severity: 'critical',
      assignee: 'none',
      q: IPS[1],
    });
    const table = screen.getByRole('table', { name: 'Alerts' });
    await vi.waitUntil(() => within(table).queryAllByRole('link').length === 1);
    expect(within(table).getByRole('link')).toHaveTextContent(`SQL injection from ${IPS[1]}`);

    // The same URL, opened again, shows the same view.
    const search = location.search;
    view.unmount();
    await open(analyst, search);
    const again = await screen.findByRole('form', { name: 'Filter alerts' });
    expect(within(again).getByRole('checkbox', { name: 'critical' })).toBeChecked();
    expect(within(again).getByRole('checkbox', { name: 'low' })).not.toBeChecked();
    expect(within(again).getByRole('checkbox', { name: 'resolved' })).toBeChecked();
    expect(within(again).getByRole('combobox', { name: 'Assignee' })).toHaveValue('none');
    expect(within(again).getByRole('searchbox', { name: 'Words in the title or group' })).toHaveValue(IPS[1]);
    const reopened = await screen.findByRole('table', { name: 'Alerts' });
    await vi.waitUntil(() => within(reopened).queryAllByRole('link').length === 1);
  });

  test('an analyst bulk acknowledges the critical alerts of a filtered list', async () => {
    await open(analyst, '?severity=critical');
    const user = userEvent.setup();
    const table = await screen.findByRole('table', { name: 'Alerts' });
    await vi.waitUntil(() => within(table).queryAllByRole('link').length === 3);
    await user.click(within(table).getByRole('checkbox', { name: 'Select all alerts on the page' }));
    const bulk = screen.getByRole('region', { name: 'Change the selected alerts' });
    expect(bulk).toHaveTextContent('3 alerts selected');
    await user.type(within(bulk).getByRole('textbox', { name: 'Reason (optional)' }), 'Pentest this week');
    await user.click(within(bulk).getByRole('button', { name: 'Acknowledge' }));
    expect(await screen.findByText('Acknowledged 3 alerts.')).toBeInTheDocument();
    const all = (await api.call('GET', `/spaces/${spaceId}/alerts?status=open,acknowledged`, owner.cookie)).json
      .items as { severity: string; status: string }[];
    expect(all.map((item) => `${item.severity} ${item.status}`).sort()).toEqual([
      'critical acknowledged',
      'critical acknowledged',
      'critical acknowledged',
      'low open',
    ]);
  });

  test('an admin switches a rule off from the list and edits it in the drawer, which gives the focus back', async () => {
    await open(owner, '?tab=rules');
    const user = userEvent.setup();
    const rules = await screen.findByRole('table', { name: 'Alert rules' });
    const toggle = within(rules).getByRole('switch', { name: 'Scanner enabled' });
    expect(toggle).toBeChecked();
    await user.click(toggle);
    await vi.waitUntil(async () => {
      const list = (await api.call('GET', `/spaces/${spaceId}/alert-rules`, owner.cookie)).json.items as {
        name: string;
        enabled: boolean;
      }[];
      return list.find((rule) => rule.name === 'Scanner')?.enabled === false;
    });
    expect(await within(rules).findByRole('switch', { name: 'Scanner enabled' })).not.toBeChecked();

    const edit = within(rules).getByRole('button', { name: 'Edit Scanner' });
    await user.click(edit);
    const form = await screen.findByRole('form', { name: 'Edit “Scanner”' });
    const name = within(form).getByRole('textbox', { name: 'Name' });
    await user.clear(name);
    await user.type(name, 'Scanners');
    await user.click(within(form).getByRole('button', { name: 'Save rule' }));
    expect(await screen.findByText('Rule “Scanners” saved.')).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Edit “Scanner”' })).not.toBeInTheDocument();
    expect(edit).toHaveFocus();
  });

  test('a prefill link opens the Rules tab with the editor filled in', async () => {
    await open(
      owner,
      '?newRule=1&name=Discovered&kind=threshold&query=tag%3Aattack-sqli&groupBy=ip,rule&threshold=10&windowMinutes=5',
    );
    const form = await screen.findByRole('form', { name: 'New alert rule' });
    expect(screen.getByRole('tab', { name: 'Rules' })).toHaveAttribute('aria-selected', 'true');
    expect(within(form).getByRole('textbox', { name: 'Name' })).toHaveValue('Discovered');
    expect(within(form).getByRole('combobox', { name: 'Kind' })).toHaveValue('threshold');
    expect(within(form).getByRole('textbox', { name: 'Query' })).toHaveValue('tag:attack-sqli');
    expect(within(form).getByRole('checkbox', { name: 'ip' })).toBeChecked();
    expect(within(form).getByRole('checkbox', { name: 'rule' })).toBeChecked();
    expect(within(form).getByRole('textbox', { name: 'More than (events)' })).toHaveValue('10');
    expect(within(form).getByRole('textbox', { name: 'In (minutes)' })).toHaveValue('5');
  });

  test('Load more asks for the next page by cursor and appends it', async () => {
    await api.call('POST', `/spaces/${spaceId}/alert-rules`, owner.cookie, {
      name: 'Noise',
      severity: 'info',
      kind: 'match',
      query: 'tag:noise',
      groupBy: ['ip'],
      titleTemplate: 'Noise from {ip}',
    });
    const lines = Array.from({ length: 51 }, (_, index) =>
      eventLine(1, { ip: `198.18.0.${index + 1}`, tags: ['noise'] }),
    );
    expect((await ingest(api, token, lines)).json.accepted).toBe(51);
    await runAlertJobs(api);
    await open(analyst, '?severity=info');
    const user = userEvent.setup();
    const table = await screen.findByRole('table', { name: 'Alerts' });
    await vi.waitUntil(() => within(table).queryAllByRole('link').length === 50);
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    await vi.waitUntil(() => within(table).queryAllByRole('link').length === 51);
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
    expect(screen.getByRole('list', { name: 'Alerts by severity' })).toHaveTextContent('51 info');
  });
});
