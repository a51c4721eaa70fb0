import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { startTestApi, stubModalDialogs, type TestUser, visit } from '../shared/test-api.ts';
import { eventLine, ingest, spaceWithSource } from '../shared/test-ingest.ts';
import DiscoverScreen from './DiscoverScreen.tsx';

vi.setConfig({ testTimeout: 30_000, hookTimeout: 120_000 });

let api: Awaited<ReturnType<typeof startTestApi>>;
let owner: TestUser;
let viewer: TestUser;
let spaceId: string;
let firewallId: string;
const A = '203.0.113.7';
const B = '198.51.100.23';

beforeAll(async () => {
  stubModalDialogs();
  api = await startTestApi();
  const space = await spaceWithSource(api);
  ({ owner, viewer, spaceId } = space);
  firewallId = (
    await api.call('POST', `/spaces/${spaceId}/firewalls`, owner.cookie, {
      name: 'shop',
      hostnames: ['shop.example.com'],
      upstream: 'http://127.0.0.1:3000',
      mode: 'detect',
    })
  ).json.id;
  const waf = (minutes: number, ip: string, path: string, ruleIds: number[], action: string) =>
    eventLine(minutes, { ip, path, ruleIds, action, firewallId });
  const sent = await ingest(api, space.token, [
    waf(5, A, '/search?q=1', [942100, 949110], 'blocked'),
    waf(15, A, '/search?q=2', [942100, 949110], 'blocked'),
    waf(25, A, '/search?q=3', [942100], 'logged'),
    waf(35, B, '/login', [930120], 'logged'),
    waf(45, B, '/login', [930120], 'logged'),
  ]);
  expect(sent.json.accepted).toBe(5);
});
afterAll(async () => {
  await api.stop();
});

async function open(user: TestUser, search = '') {
  await api.signInAs(user);
  visit(`/console/alerts/waf/discover/${spaceId}${search}`);
  render(<DiscoverScreen />);
  return screen.findByRole('table', { name: 'Groups' });
}

/** The table row whose header cell is `key`. */
const rowOf = (table: HTMLElement, key: string) =>
  within(table).getByRole('rowheader', { name: key }).closest('tr') as HTMLElement;

describe('DiscoverScreen', () => {
  test('groups by IP with counts, sparklines and links; an owner blocks an IP after seeing the preview and the diff', async () => {
    const table = await open(owner);
    const user = userEvent.setup();
    expect(screen.getByRole('heading', { name: '5 events in 2 groups' })).toBeVisible();
    const a = rowOf(table, A);
    const cells = within(a).getAllByRole('cell');
    expect(cells.slice(0, 3).map((cell) => cell.textContent)).toEqual(['3', '2', '1']);
    expect(a).toHaveTextContent('942100 (3)');
    expect(
      within(a).getByRole('img', {
        name: new RegExp(`^Events of ${A} from .*, 4[89] buckets of 30 min, at most [1-3] in one$`),
      }),
    ).toBeVisible();
    const events = new URL(within(a).getByRole('link', { name: A }).getAttribute('href') ?? '', location.origin);
    expect(events.pathname).toBe(`/console/siem/${spaceId}`);
    expect(events.searchParams.get('q')).toBe(`ip:${A}`);
    const rule = new URL(
      within(a)
        .getByRole('link', { name: `Create alert rule for ${A}` })
        .getAttribute('href') ?? '',
      location.origin,
    );
    expect(rule.pathname).toBe(`/console/alert/${spaceId}`);
    expect(Object.fromEntries(rule.searchParams)).toEqual({
      newRule: '1',
      name: `WAF events from ${A}`,
      kind: 'threshold',
      query: `ip:${A}`,
      groupBy: 'ip',
    });

    const button = within(a).getByRole('button', { name: `Block IP ${A}` });
    await user.click(button);
    const dialog = await screen.findByRole('dialog', { name: 'Block an IP address' });
    expect(within(dialog).getByRole('textbox', { name: 'IP address or CIDR range' })).toHaveValue(A);
    expect(
      await within(dialog).findByText('Would have affected 3 requests from 1 IP in the last 7 days.'),
    ).toBeVisible();
    expect(within(dialog).getByText(/^Deny 203\.0\.113\.7 on “shop” for 24 h/)).toBeVisible();
    // The firewall only detects: the dialog says the block will not stop requests yet.
    expect(within(dialog).getByText(/is set to Detect only/)).toBeVisible();
    const diff = within(dialog).getByRole('region', { name: 'ip-deny.txt: version 1 to 2' });
    expect(diff).toHaveTextContent(`added: ${A}`);

    await user.click(within(dialog).getByRole('button', { name: 'Apply as version 2 of shop' }));
    expect(await within(dialog).findByText(/Version 2 of “shop” is saved/)).toBeVisible();
    expect(within(dialog).getByRole('link', { name: 'Open shop and its history' })).toHaveAttribute(
      'href',
      `/console/firewall/config/${spaceId}/${firewallId}?tab=history`,
    );
    const firewall = (await api.call('GET', `/spaces/${spaceId}/firewalls/${firewallId}`, owner.cookie)).json;
    expect(firewall.version).toBe(2);
    expect(firewall.ipDeny).toEqual([
      expect.objectContaining({ cidr: `${A}/32`, comment: 'Blocked from WAF discover' }),
    ]);

    // Closing the dialog gives the focus back to the row’s button.
    await user.click(within(dialog).getByRole('button', { name: /Close/ }));
    expect(button).toHaveFocus();
  });

  test('group by rule, sort by blocked and the query are kept in the URL; a bad query is named and not sent', async () => {
    await open(owner);
    const user = userEvent.setup();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Group by' }), 'rule');
    const table = await screen.findByRole('table', { name: 'Groups' });
    expect(await within(table).findByRole('columnheader', { name: 'Rule' })).toBeVisible();
    expect(
      within(table)
        .getAllByRole('rowheader')
        .map((cell) => cell.textContent),
    ).toEqual(['942100', '930120', '949110']);
    await user.click(within(table).getByRole('button', { name: 'Blocked' }));
    await vi.waitFor(() =>
      expect(
        within(table)
          .getAllByRole('rowheader')
          .map((cell) => cell.textContent),
      ).toEqual(['942100', '949110', '930120']),
    );
    expect(within(table).getByRole('columnheader', { name: /Blocked/ })).toHaveAttribute('aria-sort', 'descending');
    expect(new URLSearchParams(location.search).get('groupBy')).toBe('rule');
    expect(new URLSearchParams(location.search).get('sort')).toBe('blocked');
    // 949110 decides blocking: it offers no exclusion; 942100 does, asking for the path.
    expect(within(rowOf(table, '949110')).queryByRole('button', { name: /Add exclusion/ })).toBeNull();
    await user.click(within(rowOf(table, '942100')).getByRole('button', { name: 'Add exclusion 942100' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add an exclusion' });
    await user.click(within(dialog).getByRole('button', { name: 'Preview' }));
    expect(within(dialog).getByText('Enter a path prefix, such as /search.')).toBeVisible();
    await user.type(within(dialog).getByRole('textbox', { name: 'Path prefix' }), '/search');
    await user.click(within(dialog).getByRole('button', { name: 'Preview' }));
    expect(
      await within(dialog).findByText('Would have affected 3 requests from 1 IP in the last 7 days.'),
    ).toBeVisible();
    await user.click(within(dialog).getByRole('button', { name: /Close/ }));

    const query = screen.getByRole('textbox', { name: 'Query' });
    await user.type(query, 'foo:bar');
    expect(screen.getByText(/^Unknown field "foo"/)).toBeVisible();
    expect(screen.getByRole('button', { name: 'Search' })).toBeDisabled();
    await user.clear(query);
    await user.type(query, 'action:logged{enter}');
    await vi.waitFor(() =>
      expect(
        within(table)
          .getAllByRole('rowheader')
          .map((cell) => cell.textContent),
      ).toEqual(['930120', '942100']),
    );
    expect(new URLSearchParams(location.search).get('q')).toBe('action:logged');
  });

  test('a link with its view opens it; a viewer sees the preview but cannot apply', async () => {
    const table = await open(viewer, '?groupBy=path&range=1h');
    expect(screen.getByRole('combobox', { name: 'Group by' })).toHaveValue('path');
    expect(screen.getByRole('combobox', { name: 'Time range' })).toHaveValue('1h');
    const search = rowOf(table, '/search');
    expect(within(search).getAllByRole('cell')[0]).toHaveTextContent('3');
    const events = new URL(
      within(search).getByRole('link', { name: '/search' }).getAttribute('href') ?? '',
      location.origin,
    );
    expect(events.searchParams.get('q')).toBe('(path:/search OR path:/search?*)');
    const user = userEvent.setup();
    await user.click(within(search).getByRole('button', { name: 'Add exclusion /search' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add an exclusion' });
    // The path group's top rule is proposed.
    expect(within(dialog).getByRole('textbox', { name: 'Rule id' })).toHaveValue('942100');
    expect(await within(dialog).findByText(/^Would have affected 3 requests/)).toBeVisible();
    expect(within(dialog).queryByRole('button', { name: /^Apply/ })).toBeNull();
    expect(within(dialog).getByText('Only admins and owners of this space can change firewalls.')).toBeVisible();
  });
});
