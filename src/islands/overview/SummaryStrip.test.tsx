import { render, screen, within } from '@testing-library/react';
import axe from 'axe-core';
import { cleanStores } from 'nanostores';
import { $overviewSearch } from '../../stores/events.ts';
import { $overviewSummary } from '../../stores/overview.ts';
import { startTestApi, type TestUser, visit } from '../shared/test-api.ts';
import { eventLine, ingest, spaceWithSource } from '../shared/test-ingest.ts';
import { SummaryStrip } from './SummaryStrip.tsx';

vi.setConfig({ testTimeout: 30_000, hookTimeout: 120_000 });

const HOUR = 3_600_000;

let api: Awaited<ReturnType<typeof startTestApi>>;
let viewer: TestUser;
let spaceId: string;

beforeAll(async () => {
  api = await startTestApi();
  let token: string;
  ({ viewer, spaceId, token } = await spaceWithSource(api));
  // Three requests in the last 24 hours (two blocked, two addresses); one, allowed, in the 24 hours before.
  const lines = [
    eventLine(5, { ip: '192.0.2.1', action: 'blocked' }),
    eventLine(60, { ip: '192.0.2.1', action: 'blocked' }),
    eventLine(120, { ip: '192.0.2.2', action: 'allowed' }),
    eventLine(30 * 60, { ip: '192.0.2.9', action: 'allowed' }),
  ];
  expect((await ingest(api, token, lines)).json.accepted).toBe(4);
});
afterAll(async () => {
  await api.stop();
});
afterEach(() => {
  cleanStores($overviewSummary);
  $overviewSearch.set(undefined);
});

async function show(from: number, to: number) {
  await api.signInAs(viewer);
  visit(`/console/${spaceId}`);
  $overviewSearch.set({ q: '', from: new Date(from).toISOString(), to: new Date(to).toISOString() });
  render(<SummaryStrip spaceId={spaceId} range="24h" />);
  return screen.findByRole('region', { name: 'Summary of the last 24 h' });
}

describe('SummaryStrip', () => {
  test('each number links to where it is listed and says its change in words', async () => {
    const now = Date.now();
    const strip = await show(now - 24 * HOUR, now);
    const requests = await within(strip).findByRole('link', { name: 'Requests 3' });
    expect(requests.getAttribute('href')).toBe(`/console/siem/${spaceId}?range=24h`);
    expect(requests.closest('li')).toHaveTextContent('up 200% vs previous 24 h');
    const blocked = within(strip).getByRole('link', { name: 'Blocked 2' });
    expect(blocked.getAttribute('href')).toBe(`/console/siem/${spaceId}?q=action%3Ablocked&range=24h`);
    expect(blocked.closest('li')).toHaveTextContent('new: none in previous 24 h');
    const rate = within(strip).getByRole('link', { name: 'Block rate 66.7%' });
    expect(rate.closest('li')).toHaveTextContent('up 66.7 points vs previous 24 h');
    expect(within(strip).getByRole('link', { name: 'Client IPs 2' }).closest('li')).toHaveTextContent(
      'up 100% vs previous 24 h',
    );
    const alerts = within(strip).getByRole('link', { name: 'Open alerts 0' });
    expect(alerts.getAttribute('href')).toBe(`/console/alert/${spaceId}?status=open`);
    expect(alerts.closest('li')).toHaveTextContent('no change vs previous 24 h');
    const findings = within(strip).getByRole('link', { name: 'Critical findings 0' });
    expect(findings.getAttribute('href')).toBe(
      `/console/vulnerabilities/assessment/${spaceId}?f.status=open&f.severity=critical`,
    );
    expect((await axe.run(document.body)).violations).toEqual([]);
  });

  test('a failed summary says why and offers Retry', async () => {
    const now = Date.now();
    const strip = await show(now, now - HOUR);
    expect(await within(strip).findByRole('alert')).toHaveTextContent('The start of the range must be before its end.');
    expect(within(strip).getByText('The summary could not be loaded.')).toBeInTheDocument();
    expect(within(strip).getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });
});
