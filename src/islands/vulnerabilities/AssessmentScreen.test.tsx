import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { spaceWithAnalyst } from '../shared/test-alerts.ts';
import { startTestApi, stubModalDialogs, type TestUser, visit } from '../shared/test-api.ts';
import { AssessButton } from './AssessButton.tsx';
import AssessmentScreen from './AssessmentScreen.tsx';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

let api: Awaited<ReturnType<typeof startTestApi>>;
let owner: TestUser;
let viewer: TestUser;
let analyst: TestUser;
let spaceId: string;

const record = (id: string, alias: string, ecosystem: string, name: string, fixed: string) => ({
  schema_version: '1.6.0',
  id,
  aliases: [alias],
  summary: `${alias} in ${name}`,
  modified: '2024-03-01T00:00:00Z',
  affected: [
    { package: { ecosystem, name }, ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }, { fixed }] }] },
  ],
});

beforeAll(stubModalDialogs);
beforeAll(async () => {
  api = await startTestApi();
  ({ owner, viewer, analyst, spaceId } = await spaceWithAnalyst(api));
  // The test API's calls throw on any refusal.
  await api.call('POST', `/spaces/${spaceId}/vuln-refs`, owner.cookie, [
    record('GHSA-35jh-r3h4-6jhm', 'CVE-2021-23337', 'npm', 'lodash', '4.17.21'),
    record('GHSA-jfh8-c2jp-5v3q', 'CVE-2021-44228', 'Maven', 'org.apache.logging.log4j:log4j-core', '2.15.0'),
  ]);
  await api.call('POST', `/spaces/${spaceId}/assets`, owner.cookie, {
    name: 'Storefront',
    kind: 'application',
    components: [{ purl: 'pkg:npm/lodash@4.17.20' }, { purl: 'pkg:maven/org.apache.logging.log4j/log4j-core@2.14.1' }],
  });
  expect((await api.call('POST', `/spaces/${spaceId}/assessments`, owner.cookie, {})).json.findingsNew).toBe(2);
});
afterAll(async () => {
  await api.stop();
});

async function open(user: TestUser, search = '') {
  await api.signInAs(user);
  visit(`/console/vulnerabilities/assessment/${spaceId}${search}`);
  render(<AssessmentScreen />);
  return { user: userEvent.setup(), table: await screen.findByRole('table', { name: 'Findings' }) };
}

describe('AssessmentScreen', () => {
  test('a viewer reads findings and a finding’s decisions, with no triage, assessment or patch offered', async () => {
    const { user, table } = await open(viewer);
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    expect(within(table).queryByRole('checkbox')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Assess all assets' })).not.toBeInTheDocument();
    expect(screen.getByText(/Open 2 · Not affected 0/)).toBeInTheDocument();
    await user.click(within(table).getByRole('button', { name: 'GHSA-35jh-r3h4-6jhm' }));
    const panel = await screen.findByRole('dialog', { name: 'Finding GHSA-35jh-r3h4-6jhm' });
    expect(await within(panel).findByText('No decision yet.')).toBeInTheDocument();
    expect(within(panel).queryByRole('button', { name: 'Save decision' })).not.toBeInTheDocument();
    expect(within(panel).queryByRole('heading', { name: 'Virtual patch' })).not.toBeInTheDocument();
    const results = await axe.run(document.body, { rules: { 'color-contrast': { enabled: false } } });
    expect(results.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
  });

  test('an analyst triages the selected findings; a risk acceptance without an end is refused on its field', async () => {
    const { user, table } = await open(analyst);
    await user.click(within(table).getByRole('checkbox', { name: 'Select GHSA-35jh-r3h4-6jhm in lodash 4.17.20' }));
    const form = screen.getByRole('form', { name: 'Triage 1 finding' });
    await user.selectOptions(within(form).getByRole('combobox', { name: 'Decision' }), 'accepted');
    await user.type(within(form).getByRole('textbox', { name: 'Why the risk is accepted' }), 'Internal tool only');
    await user.click(within(form).getByRole('button', { name: 'Save decision' }));
    expect(
      await within(form).findByText('Choose when the acceptance ends (the finding opens again).'),
    ).toBeInTheDocument();
    await user.selectOptions(within(form).getByRole('combobox', { name: 'Decision' }), 'not_affected');
    await user.selectOptions(
      within(form).getByRole('combobox', { name: 'Justification (VEX)' }),
      'The vulnerable code is not reachable',
    );
    await user.click(within(form).getByRole('button', { name: 'Save decision' }));
    expect(await screen.findByText('Updated 1 finding.')).toBeInTheDocument();
    const row = within(await screen.findByRole('table', { name: 'Findings' }))
      .getByRole('button', { name: 'GHSA-35jh-r3h4-6jhm' })
      .closest('tr') as HTMLElement;
    expect(await within(row).findByText('Not affected')).toBeInTheDocument();
    // Analysts triage one finding from its panel too, but make no firewall change.
    await user.click(within(table).getByRole('button', { name: 'GHSA-jfh8-c2jp-5v3q' }));
    const panel = await screen.findByRole('dialog', { name: 'Finding GHSA-jfh8-c2jp-5v3q' });
    expect(await within(panel).findByRole('button', { name: 'Save decision' })).toBeInTheDocument();
    expect(within(panel).queryByRole('heading', { name: 'Virtual patch' })).not.toBeInTheDocument();
  });

  test('the owner assesses every asset, filters by status in the URL, and is sent to add a firewall for a patch', async () => {
    const { user } = await open(owner, '?f.status=open');
    await user.click(screen.getByRole('button', { name: 'Assess all assets' }));
    expect(
      await screen.findByText('Assessed 1 asset (2 components): 0 new, 0 fixed, 0 found again.'),
    ).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Findings' });
    // Only the open one: lodash is not affected since the analyst's decision.
    expect(within(table).getAllByRole('row')).toHaveLength(2);
    expect(screen.getByRole('combobox', { name: 'Status' })).toHaveValue('open');
    await user.click(within(table).getByRole('button', { name: 'GHSA-jfh8-c2jp-5v3q' }));
    const panel = await screen.findByRole('dialog', { name: 'Finding GHSA-jfh8-c2jp-5v3q' });
    expect(await within(panel).findByRole('heading', { name: 'Virtual patch' })).toBeInTheDocument();
    expect(await within(panel).findByRole('link', { name: 'Firewalls' })).toHaveAttribute(
      'href',
      `/console/firewall/${spaceId}`,
    );
  });
});

describe('an empty library', () => {
  test('an assessment says the library is empty, nothing could be found, and where to import it', async () => {
    const created = await api.call('POST', '/spaces', owner.cookie, { name: 'No library' });
    const emptyId = String((created.json as { id: string }).id);
    await api.call('POST', `/spaces/${emptyId}/assets`, owner.cookie, {
      name: 'Storefront',
      kind: 'application',
      components: [{ purl: 'pkg:npm/lodash@4.17.20' }],
    });
    await api.signInAs(owner);
    visit(`/console/vulnerabilities/assessment/${emptyId}`);
    const user = userEvent.setup();
    render(<AssessButton spaceId={emptyId} label="Assess all assets" />);
    await user.click(screen.getByRole('button', { name: 'Assess all assets' }));
    const warning = await screen.findByRole('alert');
    expect(warning).toHaveTextContent('The vulnerability library is empty, so nothing could be found.');
    expect(warning).toHaveTextContent('Assessed 1 asset (1 component): 0 new');
    expect(within(warning).getByRole('link', { name: 'Import OSV records into the library' })).toHaveAttribute(
      'href',
      `/console/vulnerabilities/refs/${emptyId}`,
    );
  });
});
