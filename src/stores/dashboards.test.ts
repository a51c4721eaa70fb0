import { dashboardTemplates } from '../../contract/constants/dashboard-templates.ts';
import type { Dashboard, DashboardModel } from '../../contract/dashboards.ts';
import { $dashboardDraft, editDashboard, startDashboardDraft } from './dashboards.ts';

const person = { id: '00000000-0000-4000-8000-000000000009', name: 'Ana Analyst' };
const stored = (id: string, model: DashboardModel): Dashboard => ({
  ...model,
  id,
  version: 1,
  isDefault: false,
  createdAt: '2026-01-02T03:04:05.000Z',
  createdBy: person,
  updatedAt: '2026-01-02T03:04:05.000Z',
  updatedBy: person,
});
const overview = stored('00000000-0000-4000-8000-000000000001', dashboardTemplates.overview.model);
const handmade = stored('00000000-0000-4000-8000-000000000002', {
  ...dashboardTemplates.empty.model,
  title: 'Built by hand',
});

describe('the open dashboard draft', () => {
  test('an edit of the open dashboard changes its draft', () => {
    startDashboardDraft('space', handmade);
    editDashboard(handmade.id, (model) => ({ ...model, title: 'Renamed' }));
    expect($dashboardDraft.get()?.model.title).toBe('Renamed');
  });

  test('an edit made on a dashboard the page has left never lands on the one open now', () => {
    // A chart type switched on the overview, whose change code loaded only once the page showed another dashboard.
    startDashboardDraft('space', handmade);
    editDashboard(overview.id, { ...dashboardTemplates.overview.model, title: 'Overview' });
    const draft = $dashboardDraft.get();
    expect(draft?.model.title).toBe('Built by hand');
    expect(draft?.model.widgets).toEqual([]);
    expect(draft?.model).toBe(draft?.savedModel);
  });
});
