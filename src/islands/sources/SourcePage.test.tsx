import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { startTestApi, type TestUser, visit } from '../shared/test-api.ts';
import { eventLine, ingest } from '../shared/test-ingest.ts';
import SourcePage from './SourcePage.tsx';

vi.setConfig({ testTimeout: 30_000, hookTimeout: 120_000 });

let api: Awaited<ReturnType<typeof startTestApi>>;
let owner: TestUser;
let viewer: TestUser;
let spaceId: string;

beforeAll(async () => {
  api = await startTestApi();
  owner = await api.signUp('olivia@example.com', 'Olivia Owner');
  viewer = await api.signUp('victor@example.com', 'Victor Viewer');
  spaceId = (await api.call('POST', '/spaces', owner.cookie, { name: 'Acme' })).json.id;
  await api.join(spaceId, owner, viewer, 'viewer');
});
afterAll(async () => {
  await api.stop();
});

/** A source made through the API, with its one-time token. */
async function createSource(name: string, kind = 'json'): Promise<{ id: string; token: string; tokenPrefix: string }> {
  return (await api.call('POST', `/spaces/${spaceId}/sources`, owner.cookie, { name, kind })).json;
}

async function open(user: TestUser, sourceId: string) {
  await api.signInAs(user);
  visit(`/console/siem/manage/${spaceId}/${sourceId}`);
  const view = render(<SourcePage />);
  await screen.findByRole('heading', { level: 2, name: 'Ingest token' });
  return view;
}

const curlPrefix = () =>
  `curl -X POST --data-binary @events.ndjson -H 'Content-Type: application/x-ndjson' ${location.origin}/api/ingest/`;

describe('SourcePage', () => {
  test('shows the kind, the ingest figures, the retention, the token prefix only, the curl line and recent errors', async () => {
    const source = await createSource('edge nginx');
    const sent = await ingest(api, source.token, [eventLine(2, { ip: '8.8.8.8' }), '{"ip":"1.2.3.4"}', eventLine(5)]);
    expect(sent.json.accepted).toBe(2);
    await open(owner, source.id);
    expect(screen.getByRole('heading', { level: 2, name: 'edge nginx' })).toBeInTheDocument();
    expect(screen.getByText(/^JSON lines · created/)).toBeInTheDocument();
    const figures = (term: string) => screen.getByText(term).nextElementSibling as HTMLElement;
    expect(figures('Events, last hour')).toHaveTextContent('2');
    expect(figures('Last event')).toHaveTextContent(/^just now.*\d{4}/);
    expect(figures('Errors, last 24 h')).toHaveTextContent('1');
    expect(figures('Retention')).toHaveTextContent('7 days (the space’s retention)');

    expect(screen.getByText(source.tokenPrefix)).toBeInTheDocument();
    expect(document.body).not.toHaveTextContent(source.token);
    const command = screen.getByRole('figure', { name: 'Send events with curl' });
    expect(within(command).getByText(`${curlPrefix()}$SPACEGUARD_TOKEN`)).toBeInTheDocument();
    expect(command).toHaveTextContent('The token was shown once');

    const errors = screen.getByRole('table', { name: 'Recent ingest errors' });
    const rows = within(errors).getAllByRole('row');
    expect(rows).toHaveLength(2);
    expect(within(rows[1] as HTMLElement).getByRole('rowheader')).toHaveTextContent('2');
    expect(rows[1]).toHaveTextContent(/time/i);
    expect(rows[1]).toHaveTextContent(/\d{4}/);
  });

  test('rotate asks first, then shows the new token once with its curl line; the old token stops working', async () => {
    const source = await createSource('rotating');
    const view = await open(owner, source.id);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Rotate token' }));
    const question = screen.getByRole('group', { name: 'Rotate the token? The current one stops working at once.' });
    expect(within(question).getByRole('button', { name: 'Rotate' })).toHaveFocus();
    await user.click(within(question).getByRole('button', { name: 'Rotate' }));

    const field = await screen.findByRole('textbox', { name: 'Ingest token' });
    const token = (field as HTMLInputElement).value;
    expect(token).toMatch(/^sgi_/);
    expect(token).not.toBe(source.token);
    expect(screen.getByText('New token issued; the old one no longer works.')).toBeInTheDocument();
    expect(screen.getByText(`${curlPrefix()}${token}`)).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Copy token' }));
    expect(await screen.findByText('Copied!')).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe(token);

    expect((await ingest(api, source.token, [eventLine(1)])).status).toBe(401);
    expect((await ingest(api, token, [eventLine(1)])).json.accepted).toBe(1);

    // Shown once: opening the page again shows only the prefix.
    view.unmount();
    await open(owner, source.id);
    expect(screen.queryByRole('textbox', { name: 'Ingest token' })).not.toBeInTheDocument();
    expect(screen.getByText(token.slice(0, 10))).toBeInTheDocument();
  });

  test('the parser test shows each good line as a normalised event and each bad line with its number and reason', async () => {
    const source = await createSource('parser');
    await open(owner, source.id);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Test parser' }));
    expect(await screen.findByText('Paste at least one line to test.')).toBeInTheDocument();

    const sample = [
      eventLine(1, { ip: '81.2.69.142', method: 'GET', host: 'shop.example.test', path: '/search', action: 'blocked' }),
      'not json at all',
      eventLine(3, { severity: 'high', ruleIds: [942100], tags: ['attack-sqli'], message: 'SQL injection' }),
    ].join('\n');
    const textarea = screen.getByRole('textbox', { name: 'Sample' });
    await user.click(textarea);
    await user.paste(sample);
    await user.click(screen.getByRole('button', { name: 'Test parser' }));

    expect(await screen.findByText('2 lines read as events, 1 line refused.')).toBeInTheDocument();
    const events = screen.getByRole('table', { name: 'Normalised events' });
    const rows = within(events).getAllByRole('row');
    expect(rows).toHaveLength(3);
    expect(within(rows[1] as HTMLElement).getByRole('rowheader')).toHaveTextContent('1');
    expect(rows[1]).toHaveTextContent('blocked');
    expect(rows[1]).toHaveTextContent('81.2.69.142 (GB)');
    expect(rows[1]).toHaveTextContent('GET shop.example.test/search');
    expect(within(rows[2] as HTMLElement).getByRole('rowheader')).toHaveTextContent('3');
    expect(rows[2]).toHaveTextContent('942100, attack-sqli');
    expect(rows[2]).toHaveTextContent('SQL injection');
    const refused = screen.getByRole('table', { name: 'Refused lines' });
    const bad = within(refused).getAllByRole('row')[1] as HTMLElement;
    expect(within(bad).getByRole('rowheader')).toHaveTextContent('2');
    expect(bad).toHaveTextContent(/Not valid JSON/);
    expect(textarea).toHaveValue(sample);
  });

  test('edit shows the API errors next to the fields they name and keeps what was typed; a good edit saves', async () => {
    const source = await createSource('to edit');
    await open(owner, source.id);
    const user = userEvent.setup();
    const form = screen.getByRole('form', { name: 'Source settings' });
    const name = within(form).getByRole('textbox', { name: 'Name' });
    const retention = within(form).getByRole('spinbutton', { name: 'Retention (days)' });
    await user.clear(name);
    await user.type(name, '   ');
    await user.type(retention, '0');
    await user.click(within(form).getByRole('button', { name: 'Save changes' }));
    expect(await within(form).findByText('Name the source.')).toBeInTheDocument();
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(name).toHaveAccessibleDescription('Name the source.');
    expect(retention).toHaveAccessibleDescription(expect.stringContaining('Keep events at least 1 day.'));
    expect(retention).toHaveValue(0);

    await user.clear(name);
    await user.type(name, 'edited');
    await user.clear(retention);
    await user.type(retention, '3');
    await user.selectOptions(within(form).getByRole('combobox', { name: 'Kind' }), 'syslog');
    await user.click(within(form).getByRole('button', { name: 'Save changes' }));
    expect(await within(form).findByText('Changes saved.')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { level: 2, name: 'edited' })).toBeInTheDocument();
    expect(screen.getByText(/^Syslog \(RFC 5424\) · created/)).toBeInTheDocument();
    expect(screen.getByText('Retention').nextElementSibling).toHaveTextContent('3 days');
  });

  test('delete asks first, deletes the source and leads back to the log sources', async () => {
    const source = await createSource('doomed');
    await open(owner, source.id);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Delete source' }));
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.getByRole('button', { name: 'Delete source' })).toHaveFocus();
    await user.click(screen.getByRole('button', { name: 'Delete source' }));
    await user.click(
      within(screen.getByRole('group', { name: 'Delete doomed and its events?' })).getByRole('button', {
        name: 'Delete',
      }),
    );
    expect(await screen.findByText(/Source “doomed” was deleted with its events/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to the log sources' })).toHaveAttribute(
      'href',
      `/console/siem/${spaceId}?view=sources`,
    );
    await expect(api.call('GET', `/spaces/${spaceId}/sources/${source.id}`, owner.cookie)).rejects.toThrow(/404/);
  });

  test('a viewer reads the source but sees no edit, rotate, parser test or delete controls', async () => {
    const source = await createSource('read only');
    await open(viewer, source.id);
    expect(screen.getByRole('heading', { level: 2, name: 'read only' })).toBeInTheDocument();
    expect(screen.getByText(source.tokenPrefix)).toBeInTheDocument();
    expect(screen.getByRole('figure', { name: 'Send events with curl' })).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Source settings' })).not.toBeInTheDocument();
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Rotate token' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Test parser' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete source' })).not.toBeInTheDocument();
    expect(screen.getByText('Only admins and owners of this space can run the parser test.')).toBeInTheDocument();
    expect(screen.getByText(/^No refused lines\./)).toBeInTheDocument();
  });

  test('an unknown source id says the source was not found, with a way back', async () => {
    await api.signInAs(owner);
    visit(`/console/siem/manage/${spaceId}/9b1d7e0a-52c4-4f8e-8a3b-6d2c1f0e9a7b`);
    render(<SourcePage />);
    expect(await screen.findByRole('heading', { name: 'Log source not found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to the log sources' })).toHaveAttribute(
      'href',
      `/console/siem/${spaceId}?view=sources`,
    );
  });

  test('a space the user is not a member of says so', async () => {
    await api.signInAs(viewer);
    visit('/console/siem/manage/00000000-0000-4000-8000-000000000000/9b1d7e0a-52c4-4f8e-8a3b-6d2c1f0e9a7b');
    render(<SourcePage />);
    expect(await screen.findByText('This space does not exist or you are not a member.')).toBeInTheDocument();
  });
});
