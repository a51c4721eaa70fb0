import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { runAlertJobs, spaceWithAnalyst } from '../shared/test-alerts.ts';
import { startTestApi, stubModalDialogs, type TestUser, visit } from '../shared/test-api.ts';
import { eventLine, ingest } from '../shared/test-ingest.ts';
import AlertScreen from './AlertScreen.tsx';

vi.setConfig({ testTimeout: 30_000, hookTimeout: 120_000 });

let api: Awaited<ReturnType<typeof startTestApi>>;
let owner: TestUser;
let viewer: TestUser;
let analyst: TestUser;
let spaceId: string;
let alertId: string;

beforeAll(async () => {
  stubModalDialogs();
  api = await startTestApi();
  const space = await spaceWithAnalyst(api);
  ({ owner, viewer, analyst, spaceId } = space);
  await api.call('POST', `/spaces/${spaceId}/alert-rules`, owner.cookie, {
    name: 'SQL injection',
    severity: 'high',
    kind: 'match',
    query: 'tag:attack-sqli',
    groupBy: ['ip'],
    titleTemplate: 'SQL injection from {ip}',
    // Nothing listens there: the delivery fails its first attempt and waits for a retry.
    channels: [{ kind: 'webhook', url: 'http://127.0.0.1:9/hook', secret: 'a-test-secret-of-20-chars' }],
  });
  // A firewall that has seen none of the alert's traffic (it came through a log source).
  await api.call('POST', `/spaces/${spaceId}/firewalls`, owner.cookie, {
    name: 'shop',
    hostnames: ['shop.example.test'],
    upstream: 'http://127.0.0.1:3000',
    mode: 'block',
  });
  const lines = [2, 1].map((minutesAgo) =>
    eventLine(minutesAgo, {
      ip: '198.51.100.7',
      method: 'GET',
      host: 'shop.example.test',
      path: '/search',
      status: 403,
      action: 'blocked',
      ruleIds: [942100],
      tags: ['attack-sqli'],
    }),
  );
  expect((await ingest(api, space.token, lines)).json.accepted).toBe(2);
  await runAlertJobs(api);
  const list = await api.call('GET', `/spaces/${spaceId}/alerts`, owner.cookie);
  expect(list.json.items).toHaveLength(1);
  alertId = list.json.items[0].id;
});
afterAll(async () => {
  await api.stop();
});

async function open(user: TestUser) {
  await api.signInAs(user);
  visit(`/console/alert/${spaceId}/${alertId}`);
  const view = render(<AlertScreen />);
  await screen.findByRole('heading', { name: 'SQL injection from 198.51.100.7', level: 2 });
  return view;
}

describe('AlertScreen', () => {
  test('a viewer reads the alert, its events and timeline, without any action', async () => {
    await open(viewer);
    expect(screen.getByText('Viewers read alerts; analysts, admins and owners work them.')).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Acknowledge' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Snooze' })).not.toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Add a note' })).not.toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Suppress this group' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Do not alert on this group…' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add a note…' })).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Remedies' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Block / })).not.toBeInTheDocument();
    const events = screen.getByRole('table', { name: 'Matching events' });
    expect(within(events).getAllByRole('row')).toHaveLength(3);
    const link = screen.getByRole('link', { name: 'Open in event log' });
    expect(link.getAttribute('href')).toMatch(new RegExp(`^/console/siem/${spaceId}\\?q=.+&from=.+&to=.+`));
    const deliveries = screen.getByRole('table', { name: 'Notifications' });
    const row = within(deliveries).getAllByRole('row')[1] as HTMLElement;
    expect(row).toHaveTextContent('alert.opened');
    expect(row).toHaveTextContent('http://127.0.0.1:9/hook');
    expect(row).toHaveTextContent(/#1 /);
  });

  test('an analyst acknowledges with a reason, adds a Markdown note and suppresses the group; the timeline shows each', async () => {
    await open(analyst);
    const user = userEvent.setup();
    const triage = screen.getByRole('region', { name: 'Triage' });
    await user.type(within(triage).getByRole('textbox', { name: 'Reason (optional)' }), 'Known scanner, watching');
    await user.click(within(triage).getByRole('button', { name: 'Acknowledge' }));
    const timeline = screen.getByRole('region', { name: 'Timeline' });
    expect(await within(timeline).findByText('Reason: Known scanner, watching')).toBeInTheDocument();
    expect(within(timeline).getByText('Ana Analyst', { selector: 'strong' })).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Reopen' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Acknowledge' })).not.toBeInTheDocument();
    expect((await api.call('GET', `/spaces/${spaceId}/alerts/${alertId}`, owner.cookie)).json.status).toBe(
      'acknowledged',
    );

    // The note form opens on demand, its text taking the focus.
    await user.click(within(timeline).getByRole('button', { name: 'Add a note…' }));
    const text = await within(timeline).findByRole('textbox', { name: 'Note' });
    await waitFor(() => expect(text).toHaveFocus());
    const note = screen.getByRole('form', { name: 'Add a note' });
    await user.type(within(note).getByRole('textbox', { name: 'Note' }), 'Blocked at the **edge** <b>raw</b>');
    await user.click(within(note).getByRole('button', { name: 'Preview' }));
    expect(await within(note).findByText('edge', { selector: 'strong' })).toBeInTheDocument();
    await user.click(within(note).getByRole('button', { name: 'Edit' }));
    await user.click(within(note).getByRole('button', { name: 'Add note' }));
    expect(await within(timeline).findByText('edge', { selector: 'strong' })).toBeInTheDocument();
    expect(timeline.querySelector('b')).toBeNull();

    // The suppression opens on demand, its first field taking the focus.
    await user.click(screen.getByRole('button', { name: 'Do not alert on this group…' }));
    const days = await screen.findByRole('textbox', { name: 'For (days)' });
    await waitFor(() => expect(days).toHaveFocus());
    const suppress = screen.getByRole('form', { name: 'Suppress this group' });
    await user.click(within(suppress).getByRole('button', { name: 'Do not alert on this group' }));
    expect(await within(suppress).findByText('Say why this group should not alert.')).toBeInTheDocument();
    await user.type(within(suppress).getByRole('textbox', { name: 'Reason' }), 'Our own pentest');
    await user.click(within(suppress).getByRole('button', { name: 'Do not alert on this group' }));
    expect(await screen.findByText('This group will not alert for 7 days.')).toBeInTheDocument();
    expect(await within(timeline).findByText('Reason: Our own pentest')).toBeInTheDocument();
  });

  test('an analyst assigns, snoozes, reopens and resolves; the header and timeline follow', async () => {
    await open(analyst);
    const user = userEvent.setup();
    const triage = screen.getByRole('region', { name: 'Triage' });
    await user.click(within(triage).getByRole('button', { name: 'Assign to me' }));
    expect(await screen.findByText('Assigned to you.')).toBeInTheDocument();
    const timeline = screen.getByRole('region', { name: 'Timeline' });
    expect(within(timeline).getByText('(assignee: nobody → Ana Analyst)')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Assign to me' })).not.toBeInTheDocument();

    const picker = screen.getByRole('combobox', { name: 'Assignee' });
    expect(picker).toHaveValue(analyst.id);
    expect(within(picker).queryByRole('option', { name: /Vic Viewer/ })).not.toBeInTheDocument();
    await user.selectOptions(picker, owner.id);
    await user.click(screen.getByRole('button', { name: 'Assign' }));
    expect(await within(timeline).findByText('(assignee: Ana Analyst → Olivia Owner)')).toBeInTheDocument();

    await user.selectOptions(screen.getByRole('combobox', { name: 'Snooze for' }), 'custom');
    await user.click(screen.getByRole('button', { name: 'Snooze' }));
    expect(await screen.findByText('Choose a date and time in the future.')).toBeInTheDocument();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Snooze for' }), '24h');
    await user.click(screen.getByRole('button', { name: 'Snooze' }));
    expect(await screen.findByText('Snoozed.')).toBeInTheDocument();
    expect(screen.getByRole('banner')).toHaveTextContent(/snoozed until/);
    const snoozed = (await api.call('GET', `/spaces/${spaceId}/alerts/${alertId}`, owner.cookie)).json;
    expect(Date.parse(snoozed.snoozedUntil) - Date.now()).toBeGreaterThan(23 * 3_600_000);

    await user.click(screen.getByRole('button', { name: 'Reopen' }));
    expect(await screen.findByText('Reopened.')).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Acknowledge' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Resolve' }));
    expect(await screen.findByText('Resolved.')).toBeInTheDocument();
    expect((await api.call('GET', `/spaces/${spaceId}/alerts/${alertId}`, owner.cookie)).json.status).toBe('resolved');
    expect(screen.queryByRole('button', { name: 'Snooze' })).not.toBeInTheDocument();
  });

  test('an analyst blocks the alert’s address or excludes its rule from the alert: the dialog opens on them, with the preview', async () => {
    await open(analyst);
    const user = userEvent.setup();
    const remedies = screen.getByRole('region', { name: 'Remedies' });
    const exclude = within(remedies).getByRole('button', { name: 'Exclude rule 942100 on /search' });
    await user.click(exclude);
    const exclusion = await screen.findByRole('dialog', { name: 'Add an exclusion' });
    expect(within(exclusion).getByRole('textbox', { name: 'Rule id' })).toHaveValue('942100');
    expect(within(exclusion).getByRole('textbox', { name: 'Path prefix' })).toHaveValue('/search');
    await user.click(within(exclusion).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(exclude).toHaveFocus());

    await user.click(within(remedies).getByRole('button', { name: 'Block 198.51.100.7' }));
    const dialog = await screen.findByRole('dialog', { name: 'Block an IP address' });
    expect(within(dialog).getByRole('textbox', { name: 'IP address or CIDR range' })).toHaveValue('198.51.100.7');
    // The firewall has seen none of this traffic: the preview says so and counts the space's matching requests.
    expect(
      await within(dialog).findByText(
        '“shop” has seen no requests in the last 7 days, so nothing to count there. Across the space, 2 requests from 1 IP match.',
      ),
    ).toBeInTheDocument();
    // Analysts preview; applying is for admins and owners.
    expect(within(dialog).getByText('Only admins and owners of this space can change firewalls.')).toBeInTheDocument();
  });
});
