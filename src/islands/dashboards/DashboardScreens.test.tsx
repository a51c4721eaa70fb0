import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { dashboardTemplates } from '../../../contract/constants/dashboard-templates.ts';
import { clearApiCacheForTests } from '../../stores/fetcher.ts';
import { navigate } from '../shared/navigate.ts';
import { spaceWithAnalyst } from '../shared/test-alerts.ts';
import { startTestApi, stubModalDialogs, type TestUser, visit } from '../shared/test-api.ts';
import { eventLine, ingest } from '../shared/test-ingest.ts';
import DashboardsScreen from './DashboardsScreen.tsx';
import ExploreScreen from './ExploreScreen.tsx';

vi.mock('../shared/navigate.ts', () => ({ navigate: vi.fn() }));
vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

let api: Awaited<ReturnType<typeof startTestApi>>;
let owner: TestUser;
let viewer: TestUser;
let analyst: TestUser;
let spaceId: string;
let overviewId: string;

beforeAll(stubModalDialogs);
beforeAll(async () => {
  api = await startTestApi();
  let token: string;
  ({ owner, viewer, analyst, spaceId, token } = await spaceWithAnalyst(api));
  // Six events of the last hour: four blocked, from two addresses.
  const lines = [
    eventLine(3, { ip: '2.2.2.2', action: 'blocked', severity: 'high', status: 403 }),
    eventLine(6, { ip: '2.2.2.2', action: 'blocked', severity: 'high', status: 403 }),
    eventLine(9, { ip: '8.8.8.8', action: 'blocked', severity: 'critical', status: 403 }),
    eventLine(12, { ip: '8.8.8.8', action: 'blocked', severity: 'critical', status: 403 }),
    eventLine(15, { ip: '8.8.8.8', action: 'allowed', status: 200 }),
    eventLine(18, { ip: '2.2.2.2', action: 'allowed', status: 200 }),
  ];
  expect((await ingest(api, token, lines)).json.accepted).toBe(6);
  const list = await api.call('GET', `/spaces/${spaceId}/dashboards`, owner.cookie);
  overviewId = list.json.items[0].id;
});
afterAll(async () => {
  await api.stop();
});
beforeEach(() => {
  clearApiCacheForTests();
  vi.mocked(navigate).mockClear();
});

/** Opens a dashboard as `user` and waits until it has loaded: its title, not the loading state's "Dashboard", heads it. */
async function explore(user: TestUser, id: string, title: string) {
  await api.signInAs(user);
  visit(`/console/dashboard/explore/${spaceId}/${id}`);
  render(<ExploreScreen />);
  await screen.findByRole('heading', { level: 1, name: title });
  return userEvent.setup();
}

const statValue = (title: string) =>
  within(screen.getByRole('region', { name: title })).findByText(/^\d[\d,]*$/, { selector: '.sg-widget__stat-value' });

describe('the dashboard list', () => {
  test('a viewer sees the default overview without any control that changes dashboards', async () => {
    await api.signInAs(viewer);
    visit(`/console/dashboard/${spaceId}`);
    const { container } = render(<DashboardsScreen />);
    const table = await screen.findByRole('table', { name: '' });
    expect(within(table).getByRole('link', { name: 'Overview' })).toHaveAttribute(
      'href',
      `/console/dashboard/explore/${spaceId}/${overviewId}`,
    );
    expect(within(table).getByText('Default')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'New dashboard' })).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Import JSON')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Duplicate/ })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Export Overview' })).toBeInTheDocument();
    expect((await axe.run(container)).violations).toEqual([]);
  });

  test('an analyst creates one from a template and is taken to it; a broken import names its problems', async () => {
    await api.signInAs(analyst);
    visit(`/console/dashboard/${spaceId}`);
    render(<DashboardsScreen />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'New dashboard' }));
    const form = screen.getByRole('form', { name: 'New dashboard' });
    await user.type(within(form).getByLabelText('Title'), 'Country watch');
    await user.selectOptions(within(form).getByLabelText('Start from'), 'attacks');
    await user.click(within(form).getByRole('button', { name: 'Create dashboard' }));
    await waitFor(() => expect(navigate).toHaveBeenCalled());
    const created = vi.mocked(navigate).mock.calls[0]?.[0] as string;
    const id = created.split('/').at(-1) as string;
    const stored = await api.call('GET', `/spaces/${spaceId}/dashboards/${id}`, analyst.cookie);
    expect(stored.json.title).toBe('Country watch');
    expect(stored.json.widgets).toEqual(dashboardTemplates.attacks.model.widgets);
    expect(stored.json.createdBy.name).toBe('Ana Analyst');

    const broken = { ...dashboardTemplates.empty.model, refreshSeconds: 7, widgets: 'none' };
    const file = new File([JSON.stringify(broken)], 'broken.json', { type: 'application/json' });
    fireEvent.change(screen.getByLabelText('Import JSON'), { target: { files: [file] } });
    const problem = await screen.findByText('This file is not a dashboard we can import:');
    const items = within(problem.parentElement as HTMLElement)
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(items).toEqual([
      'refreshSeconds: Refresh every 0, 10, 30, 60, 300 seconds (0 is off).',
      'widgets: Invalid input: expected array, received string',
    ]);
  });
});

describe('a dashboard', () => {
  test('widgets draw their own results, and one failing widget leaves the others drawn', async () => {
    // A second dashboard with a widget the server refuses: one-minute buckets over 30 days are too many.
    const model = {
      ...dashboardTemplates.empty.model,
      title: 'Mixed',
      timeRange: { from: 'now-30d', to: 'now' },
      widgets: [
        {
          id: 'blocked',
          title: 'Blocked',
          type: 'stat',
          gridPos: { x: 0, y: 0, w: 6, h: 4 },
          query: { metric: 'count', groupBy: { kind: 'none' }, filter: 'action:blocked' },
        },
        {
          id: 'minutes',
          title: 'Per minute',
          type: 'line',
          gridPos: { x: 6, y: 0, w: 18, h: 8 },
          query: { metric: 'count', groupBy: { kind: 'time', interval: '1m' }, filter: '' },
        },
        {
          id: 'clients',
          title: 'Clients',
          type: 'stat',
          gridPos: { x: 0, y: 4, w: 6, h: 4 },
          query: { metric: 'distinct', field: 'ip', groupBy: { kind: 'none' }, filter: '' },
        },
      ],
    };
    const created = await api.call('POST', `/spaces/${spaceId}/dashboards`, owner.cookie, model);
    await explore(owner, created.json.id, model.title);
    expect(await statValue('Blocked')).toHaveTextContent('4');
    expect(await statValue('Clients')).toHaveTextContent('2');
    const failed = within(screen.getByRole('region', { name: 'Per minute' }));
    expect(await failed.findByRole('alert')).toHaveTextContent(/buckets/);
    expect(failed.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
    expect((await axe.run(document.body)).violations).toEqual([]);
    // The Free plan's three dashboards: make room for the next test's.
    await api.call('DELETE', `/spaces/${spaceId}/dashboards/${created.json.id}`, owner.cookie);
  });

  test('a viewer gets no edit control; the type switch changes only the view', async () => {
    const user = await explore(viewer, overviewId, 'Overview');
    expect(screen.queryByRole('button', { name: 'Edit' })).not.toBeInTheDocument();
    const type = screen.getByLabelText('Chart type of Top client IPs');
    await user.selectOptions(type, 'column');
    // The switch lands once the change code has loaded: the widget is a column chart, and nothing offers to save it.
    await waitFor(() => expect(type).toHaveValue('column'));
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
  });

  test('an analyst adds a widget with a live preview, moves it with the keyboard and saves; a stale save shows both versions', async () => {
    const created = await api.call('POST', `/spaces/${spaceId}/dashboards`, analyst.cookie, {
      ...dashboardTemplates.empty.model,
      title: 'Built by hand',
    });
    const id = created.json.id as string;
    const user = await explore(analyst, id, 'Built by hand');
    await user.click(screen.getByRole('button', { name: 'Add a widget' }));
    const form = await screen.findByRole('form', { name: 'New widget' });
    await user.type(within(form).getByLabelText('Title'), 'Blocked by IP');
    // A new widget starts as an area over time; grouped by a field's values it becomes a bar chart.
    expect(within(form).getByLabelText('Chart type')).toHaveValue('areaspline');
    await user.selectOptions(within(form).getByLabelText('Group by'), 'field');
    expect(within(form).getByLabelText('Chart type')).toHaveValue('bar');
    await user.selectOptions(within(form).getByLabelText('Field', { exact: true } as never), 'ip');
    await user.type(within(form).getByLabelText('Filter'), 'action:blocked');
    await user.selectOptions(within(form).getByLabelText('Chart type'), 'table');
    // The preview is the real answer: two addresses, two blocked events each.
    const preview = within(within(form).getByRole('region', { name: 'Preview' }));
    await waitFor(() =>
      expect(preview.getAllByRole('row').map((row) => row.textContent)).toEqual([
        'Client IPEvents',
        '2.2.2.22',
        '8.8.8.82',
      ]),
    );
    await user.click(within(form).getByRole('button', { name: 'Add widget' }));

    const handle = await screen.findByRole('button', { name: 'Move or resize Blocked by IP' });
    handle.focus();
    await user.keyboard('{ArrowRight}{ArrowRight}{Shift>}{ArrowDown}{/Shift}');
    expect(screen.getByText('Blocked by IP: column 3, row 1, 12 columns wide, 9 rows tall.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Saved as version 2.')).toBeInTheDocument();
    const saved = await api.call('GET', `/spaces/${spaceId}/dashboards/${id}`, analyst.cookie);
    expect(saved.json.widgets).toEqual([
      {
        id: 'blocked-by-ip',
        title: 'Blocked by IP',
        type: 'table',
        gridPos: { x: 2, y: 0, w: 12, h: 9 },
        query: { metric: 'count', groupBy: { kind: 'field', field: 'ip', limit: 10 }, filter: 'action:blocked' },
      },
    ]);

    // Someone else saves version 3 meanwhile: this editor's next save shows both sides.
    const { id: _id, version, isDefault, createdAt, createdBy, updatedAt, updatedBy, ...rest } = saved.json;
    await api.call('PUT', `/spaces/${spaceId}/dashboards/${id}`, owner.cookie, { ...rest, title: 'Renamed', version });
    await user.click(screen.getByRole('button', { name: 'Edit' }));
    await user.click(screen.getByRole('button', { name: 'Remove Blocked by IP' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    const conflict = await screen.findByRole('alert', { name: /saved this dashboard while you were editing it/ });
    expect(within(conflict).getByText('Title: "Built by hand" → "Renamed"')).toBeInTheDocument();
    expect(within(conflict).getByText('Removed widget "Blocked by IP"')).toBeInTheDocument();
    await user.click(within(conflict).getByRole('button', { name: 'Save mine over theirs' }));
    expect(await screen.findByText('Saved as version 4.')).toBeInTheDocument();
    const final = await api.call('GET', `/spaces/${spaceId}/dashboards/${id}`, analyst.cookie);
    expect(final.json.widgets).toEqual([]);
    expect(final.json.title).toBe('Built by hand');
  });
});
