import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Highcharts from 'highcharts/esm/highcharts.js';
import { $space } from '../../stores/space.ts';
import { navigate } from '../shared/navigate.ts';
import { startTestApi, stubModalDialogs, type TestUser, visit } from '../shared/test-api.ts';
import { eventLine, ingest, spaceWithSource } from '../shared/test-ingest.ts';
import OverviewScreen from './OverviewScreen.tsx';

vi.mock('../shared/navigate.ts', () => ({ navigate: vi.fn() }));
vi.setConfig({ testTimeout: 30_000, hookTimeout: 120_000 });

let api: Awaited<ReturnType<typeof startTestApi>>;
let viewer: TestUser;
let analyst: TestUser;
let spaceId: string;

beforeAll(async () => {
  stubModalDialogs();
  api = await startTestApi();
  let token: string;
  let owner: TestUser;
  ({ owner, viewer, spaceId, token } = await spaceWithSource(api));
  analyst = await api.signUp('ana@example.com', 'Ana Analyst');
  await api.join(spaceId, owner, analyst, 'analyst');
  // A firewall that has seen none of the traffic below (it came through a log source).
  await api.call('POST', `/spaces/${spaceId}/firewalls`, owner.cookie, {
    name: 'shop',
    hostnames: ['shop.example.test'],
    upstream: 'http://127.0.0.1:3000',
    mode: 'block',
  });
  const sqli = { action: 'blocked', ruleIds: [942100, 949110], tags: ['attack-sqli', 'paranoia-level/1'] };
  const lines = [
    eventLine(5, { ip: '8.8.8.8', ...sqli }),
    eventLine(6, { ip: '8.8.8.8', ...sqli }),
    eventLine(7, { ip: '192.0.2.2', action: 'logged', ruleIds: [941100], tags: ['attack-xss'] }),
    eventLine(8, { ip: '192.0.2.3', action: 'allowed', ruleIds: [999001] }),
  ];
  expect((await ingest(api, token, lines)).json.accepted).toBe(4);
  // The world map as one square country, the United States (8.8.8.8's country in the offline lookup).
  const standIn = globalThis.fetch;
  const world = {
    type: 'FeatureCollection',
    features: [
      {
        type: 'Feature',
        id: 'US',
        properties: { name: 'United States', 'iso-a2': 'US' },
        geometry: {
          type: 'Polygon',
          coordinates: [
            [
              [0, 0],
              [10, 0],
              [10, 10],
              [0, 10],
              [0, 0],
            ],
          ],
        },
      },
    ],
  };
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) =>
    String(input) === '/maps/world-110m.json' ? Response.json(world) : standIn(input, init)) as typeof fetch;
});
afterAll(async () => {
  await api.stop();
});

describe('OverviewScreen', () => {
  test('the strip leads, the top rules say what each CRS rule detects, and a category bar or a country opens its events', async () => {
    await api.signInAs(viewer);
    visit(`/console/${spaceId}`);
    render(<OverviewScreen />);
    const strip = await screen.findByRole('region', { name: 'Summary of the last 24 h' });
    expect(await within(strip).findByRole('link', { name: 'Requests 4' })).toBeInTheDocument();

    const rules = within(await screen.findByRole('region', { name: 'Top rules' }));
    const row = (await rules.findByRole('link', { name: '942100' })).closest('tr');
    await waitFor(() => expect(row).toHaveTextContent('SQL Injection Attack Detected via libinjection'));
    // A rule the CRS does not have shows its id alone.
    expect(rules.getByRole('link', { name: '999001' }).closest('td')).toHaveTextContent(/^999001$/);
    // The anomaly-score verdict every blocked request carries is not a top rule: the rules that scored are.
    expect(rules.queryByRole('link', { name: '949110' })).not.toBeInTheDocument();

    // The attack categories' bars: sqli (2 events) first; a click (or Enter on a focused bar) opens its events.
    const columns = () => Highcharts.charts.find((c) => c?.series[0]?.type === 'column')?.series[0];
    await waitFor(() => expect(columns()?.points).toHaveLength(2), { timeout: 15_000 });
    const bar = columns()?.points[0];
    expect(bar?.category).toBe('sqli');
    // Highcharts' own event dispatch (not in its type declarations), as its click and keyboard handlers call it.
    (bar as unknown as { firePointEvent(name: string): void }).firePointEvent('click');
    expect(navigate).toHaveBeenCalledWith(`/console/siem/${spaceId}?q=tag%3Aattack-sqli&range=24h`);

    // A country of the map opens its events too.
    const countries = () => Highcharts.charts.find((c) => c?.series[0]?.type === 'map')?.series[0];
    await waitFor(() => expect(countries()?.points.some((p) => p.value === 2)).toBe(true), { timeout: 15_000 });
    const country = countries()?.points.find((p) => p.value === 2);
    (country as unknown as { firePointEvent(name: string): void }).firePointEvent('click');
    expect(navigate).toHaveBeenLastCalledWith(`/console/siem/${spaceId}?q=country%3AUS&range=24h`);
  });

  test('another range asks the strip again: its numbers, changes and links follow it', async () => {
    await api.signInAs(viewer);
    visit(`/console/${spaceId}`);
    render(<OverviewScreen />);
    await within(await screen.findByRole('region', { name: 'Summary of the last 24 h' })).findByRole('link', {
      name: 'Requests 4',
    });
    fireEvent.change(screen.getByLabelText('Time range'), { target: { value: '1h' } });
    const strip = await screen.findByRole('region', { name: 'Summary of the last 1 h' });
    await waitFor(() =>
      expect(within(strip).getByRole('link', { name: 'Requests 4' }).getAttribute('href')).toBe(
        `/console/siem/${spaceId}?range=1h`,
      ),
    );
    expect(within(strip).getByRole('link', { name: 'Requests 4' }).closest('li')).toHaveTextContent(
      'new: none in previous 1 h',
    );
  });

  test('a viewer reads the top lists without acting on them', async () => {
    await api.signInAs(viewer);
    visit(`/console/${spaceId}`);
    render(<OverviewScreen />);
    const ips = within(await screen.findByRole('region', { name: 'Top client IPs' }));
    await ips.findByRole('link', { name: '8.8.8.8' });
    // The role is known: what is not offered is left out for the viewer, not still on its way.
    await waitFor(() => expect($space.get().data?.role).toBe('viewer'));
    const rules = within(screen.getByRole('region', { name: 'Top rules' }));
    expect(ips.queryByRole('columnheader', { name: 'Actions' })).not.toBeInTheDocument();
    expect(rules.queryByRole('columnheader', { name: 'Actions' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Block this address/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^This is a false positive/ })).not.toBeInTheDocument();
  });

  test('an analyst blocks a top client address and marks a top rule as a false positive, each in the remedy dialog with its preview', async () => {
    await api.signInAs(analyst);
    visit(`/console/${spaceId}`);
    render(<OverviewScreen />);
    const user = userEvent.setup();
    const ips = within(await screen.findByRole('region', { name: 'Top client IPs' }));
    const block = await ips.findByRole('button', { name: 'Block this address (8.8.8.8)' });
    expect(block).toHaveTextContent(/^Block$/);
    expect(block.closest('tr')).toBe(ips.getByRole('link', { name: '8.8.8.8' }).closest('tr'));
    await user.click(block);
    const dialog = await screen.findByRole('dialog', { name: 'Block an IP address' });
    expect(within(dialog).getByRole('textbox', { name: 'IP address or CIDR range' })).toHaveValue('8.8.8.8');
    expect(within(dialog).getByRole('combobox', { name: 'Firewall' })).toHaveDisplayValue('shop');
    // The firewall has seen none of this traffic: the preview says so and counts the space's matching requests.
    expect(
      await within(dialog).findByText(
        '“shop” has seen no requests in the last 7 days, so nothing to count there. Across the space, 2 requests from 1 IP match.',
      ),
    ).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(block).toHaveFocus());

    const rules = within(screen.getByRole('region', { name: 'Top rules' }));
    await user.click(rules.getByRole('button', { name: 'This is a false positive (rule 942100)' }));
    const exclusion = await screen.findByRole('dialog', { name: 'Add an exclusion' });
    expect(within(exclusion).getByRole('textbox', { name: 'Rule id' })).toHaveValue('942100');
    expect(within(exclusion).getByRole('textbox', { name: 'Path prefix' })).toHaveValue('/');
  });
});
