/** Dashboards of the URL's space (issue #17): the list, the open dashboard, its writes and one widget's query. */
import type {
  Dashboard,
  DashboardList,
  DashboardModel,
  UpdateDashboardBody,
  WidgetQueryBody,
  WidgetResult,
} from '../../contract/dashboards.ts';
import { call, client } from '../lib/api.ts';
import { apiStore, invalidateApi } from './fetcher.ts';
import { $routeId, $spaceId } from './route.ts';

const dashboards = client.spaces[':spaceId'].dashboards;

/** The space's dashboards, the default first, with the plan's limit. */
export const $dashboards = apiStore<DashboardList>('dashboards', [$spaceId], (spaceId) =>
  call(dashboards.$get({ param: { spaceId } })),
);

/** The dashboard of the explore URL (`/console/dashboard/explore/{space_id}/{id}`). */
export const $dashboard = apiStore<Dashboard>('dashboard', [$spaceId, $routeId], (spaceId, id) =>
  call(dashboards[':id'].$get({ param: { spaceId, id } })),
);

/** Creates a dashboard from a model (a template, an import, or an empty one). */
export async function createDashboard(spaceId: string, model: DashboardModel): Promise<Dashboard> {
  const created = await call(dashboards.$post({ param: { spaceId }, json: model }));
  invalidateApi($dashboards);
  return created;
}

/** Saves a whole dashboard based on `body.version`; a newer version on the server answers 409. */
export async function saveDashboard(spaceId: string, id: string, body: UpdateDashboardBody): Promise<Dashboard> {
  const saved = await call(dashboards[':id'].$put({ param: { spaceId, id }, json: body }));
  invalidateApi($dashboards);
  return saved;
}

/** Reads one dashboard now (the conflict view reads the other editor's version). */
export function loadDashboard(spaceId: string, id: string): Promise<Dashboard> {
  return call(dashboards[':id'].$get({ param: { spaceId, id } }));
}

export async function deleteDashboard(spaceId: string, id: string): Promise<void> {
  await call(dashboards[':id'].$delete({ param: { spaceId, id } }));
  invalidateApi($dashboards);
}

export async function duplicateDashboard(spaceId: string, id: string): Promise<Dashboard> {
  const copy = await call(dashboards[':id'].duplicate.$post({ param: { spaceId, id }, json: {} }));
  invalidateApi($dashboards);
  return copy;
}

export async function makeDefaultDashboard(spaceId: string, id: string): Promise<Dashboard> {
  const made = await call(dashboards[':id'].default.$post({ param: { spaceId, id } }));
  invalidateApi($dashboards);
  return made;
}

/** One widget's series over a range; `signal` cancels a request the screen no longer needs. */
export function queryWidget(spaceId: string, body: WidgetQueryBody, signal?: AbortSignal): Promise<WidgetResult> {
  return call(
    client.spaces[':spaceId'].query.$post({ param: { spaceId }, json: body }, signal ? { init: { signal } } : {}),
  );
}
