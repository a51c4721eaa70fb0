import { render, screen, within } from '@testing-library/react';
import { runAlertJobs, spaceWithAnalyst } from '../shared/test-alerts.ts';
import { startTestApi, type TestUser, visit } from '../shared/test-api.ts';
import { eventLine, ingest } from '../shared/test-ingest.ts';
import { OpenAlertsCard } from './OpenAlertsCard.tsx';

vi.setConfig({ testTimeout: 30_000, hookTimeout: 120_000 });

let api: Awaited<ReturnType<typeof startTestApi>>;
let owner: TestUser;
let spaceId: string;
let token: string;

beforeAll(async () => {
  api = await startTestApi();
  ({ owner, spaceId, token } = await spaceWithAnalyst(api));
});
afterAll(async () => {
  await api.stop();
});

async function show() {
  await api.signInAs(owner);
  visit(`/console/${spaceId}`);
  render(<OpenAlertsCard spaceId={spaceId} />);
  return screen.findByRole('region', { name: 'Open alerts' });
}

describe('OpenAlertsCard', () => {
  test('with no open alert it says what decides one, with a link to the rules', async () => {
    const card = await show();
    expect(await within(card).findByText(/No open alert/)).toBeTruthy();
    expect(within(card).getByRole('link', { name: 'Alert rules' }).getAttribute('href')).toBe(
      `/console/alert/${spaceId}?tab=rules`,
    );
  });

  test('open alerts by severity and the newest of them, each linking to its page', async () => {
    await api.call('POST', `/spaces/${spaceId}/alert-rules`, owner.cookie, {
      name: 'Scanner',
      severity: 'high',
      kind: 'match',
      query: 'tag:scanner',
      groupBy: ['ip'],
      titleTemplate: 'Scanner at {ip}',
    });
    const lines = ['192.0.2.1', '192.0.2.2', '192.0.2.2'].map((ip) => eventLine(1, { ip, tags: ['scanner'] }));
    expect((await ingest(api, token, lines)).json.accepted).toBe(3);
    await runAlertJobs(api);
    const card = await show();
    expect(await within(card).findByRole('list', { name: 'Alerts by severity' })).toHaveTextContent('2 high');
    const link = within(card).getByRole('link', { name: 'Scanner at 192.0.2.2' });
    const alerts = await api.call('GET', `/spaces/${spaceId}/alerts?q=192.0.2.2`, owner.cookie);
    expect(link.getAttribute('href')).toBe(`/console/alert/${spaceId}/${alerts.json.items[0].id}`);
    expect(within(card).getByText('(2 events)')).toBeTruthy();
  });
});
