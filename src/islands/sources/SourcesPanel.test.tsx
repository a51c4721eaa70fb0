import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { startTestApi, type TestUser, visit } from '../shared/test-api.ts';
import { eventLine, ingest } from '../shared/test-ingest.ts';
import SourcesPanel from './SourcesPanel.tsx';

vi.setConfig({ testTimeout: 30_000, hookTimeout: 120_000 });

let api: Awaited<ReturnType<typeof startTestApi>>;
let owner: TestUser;
let analyst: TestUser;
let spaceId: string;

beforeAll(async () => {
  api = await startTestApi();
  owner = await api.signUp('olivia@example.com', 'Olivia Owner');
  analyst = await api.signUp('ana@example.com', 'Ana Analyst');
  spaceId = (await api.call('POST', '/spaces', owner.cookie, { name: 'Acme' })).json.id;
  await api.join(spaceId, owner, analyst, 'analyst');
});
afterAll(async () => {
  await api.stop();
});

async function open(user: TestUser) {
  await api.signInAs(user);
  visit(`/console/siem/${spaceId}`);
  const view = render(<SourcesPanel />);
  await screen.findByRole('button', { name: 'Refresh' });
  return view;
}

describe('SourcesPanel', () => {
  test('with no sources, an admin is told to add one', async () => {
    await open(owner);
    expect(screen.getByText('No log sources yet. Add one below, then send events to its ingest URL.')).toBeVisible();
    expect(screen.getByRole('form', { name: 'Add a log source' })).toBeInTheDocument();
  });

  test('create names the field the API refuses, then creates and shows the token once with the curl line', async () => {
    const view = await open(owner);
    const user = userEvent.setup();
    const form = screen.getByRole('form', { name: 'Add a log source' });
    const kind = within(form).getByRole('combobox', { name: 'Kind' });
    expect(
      within(kind)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['ModSecurity audit log', 'JSON lines', 'Syslog (RFC 5424)']);
    await user.click(within(form).getByRole('button', { name: 'Create source' }));
    const name = within(form).getByRole('textbox', { name: 'Name' });
    expect(await within(form).findByText('Name the source.')).toBeInTheDocument();
    expect(name).toHaveAttribute('aria-invalid', 'true');

    await user.type(name, 'edge nginx');
    await user.selectOptions(kind, 'json');
    await user.click(within(form).getByRole('button', { name: 'Create source' }));
    const token = (await screen.findByRole('textbox', { name: 'Ingest token' })) as HTMLInputElement;
    expect(token.value).toMatch(/^sgi_/);
    expect(screen.getByText('Source “edge nginx” created.')).toBeInTheDocument();
    const command = screen.getByRole('figure', { name: 'Send events with curl' });
    expect(command).toHaveTextContent(
      `curl -X POST --data-binary @events.ndjson -H 'Content-Type: application/x-ndjson' ${location.origin}/api/ingest/${token.value}`,
    );
    const created = (await api.call('GET', `/spaces/${spaceId}/sources`, owner.cookie)).json.items[0];
    expect(screen.getByRole('link', { name: 'Open the page of edge nginx' })).toHaveAttribute(
      'href',
      `/console/siem/manage/${spaceId}/${created.id}`,
    );
    expect(name).toHaveValue('');

    const table = await screen.findByRole('table', { name: 'Log sources' });
    expect(within(table).getByRole('link', { name: 'edge nginx' })).toHaveAttribute(
      'href',
      `/console/siem/manage/${spaceId}/${created.id}`,
    );
    expect(within(table).getByText('JSON lines')).toBeInTheDocument();

    // Shown once: the next visit lists the source without its token.
    view.unmount();
    await open(owner);
    expect(screen.queryByRole('textbox', { name: 'Ingest token' })).not.toBeInTheDocument();
    expect(document.body).not.toHaveTextContent(token.value);
  });

  test('the table shows each source’s ingest rate, last event (relative and absolute) and errors in 24 h', async () => {
    const source = (
      await api.call('POST', `/spaces/${spaceId}/sources`, owner.cookie, { name: 'app logs', kind: 'json' })
    ).json;
    await ingest(api, source.token, [eventLine(1), eventLine(2), eventLine(3), 'broken']);
    await open(owner);
    const table = screen.getByRole('table', { name: 'Log sources' });
    const row = within(table).getByRole('rowheader', { name: 'app logs' }).closest('tr') as HTMLElement;
    const cells = within(row).getAllByRole('cell');
    expect(cells.map((cell) => cell.textContent)).toEqual([
      'JSON lines',
      '3',
      expect.stringMatching(/^just now.*\d{4}/),
      '1',
    ]);
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((h) => h.textContent);
    expect(headers).toEqual(['Name', 'Kind', 'Events, last hour', 'Last event', 'Errors, last 24 h']);
  });

  test('an analyst sees the sources but no create form', async () => {
    await open(analyst);
    expect(screen.getByRole('table', { name: 'Log sources' })).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Add a log source' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Create source' })).not.toBeInTheDocument();
    expect(
      screen.getByText('Only admins and owners of this space can add, change or delete log sources.'),
    ).toBeInTheDocument();
  });
});
