/** Dashboards of the URL's space: the list, the open dashboard, its writes and one widget's query. */

import { atom } from 'nanostores';
import { modelOf } from '../../contract/dashboard-rules.ts';
import type {
  Dashboard,
  DashboardList,
  DashboardModel,
  UpdateDashboardBody,
  WidgetQueryBody,
  WidgetResult,
} from '../../contract/dashboards.ts';
import { ApiError, call, client, errorMessage } from '../lib/api.ts';
import { type ApiStore, apiResource, apiStore, invalidateApi } from './fetcher.ts';
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

/** Widget requests in flight on this page: auto refresh waits for zero, so rounds never stack. */
export const $pendingWidgets = atom(0);

/**
 * Every widget's answer, remembered by request (query with variables written in, range as instants) in the one
 * fetcher context: a widget whose request did not change (an absolute range on refresh, a chart type switch, edit
 * mode) is not asked again until `invalidateApi(widgetResults)` ("Refresh now") or its retry.
 */
export const widgetResults = apiResource('widget-result');

// A busy search lane answers 503 with Retry-After: asked again by itself this many times before the widget says so.
const BUSY_RETRIES = 3;
const busyTries = new Map<string, number>();

/** Whether a widget's failure is a busy search lane that will be asked again by itself (the widget keeps loading). */
export function widgetRetrying(spaceId: string, key: string, error: unknown): boolean {
  return isBusy(error) && (busyTries.get(`${spaceId}|${key}`) ?? 0) <= BUSY_RETRIES;
}

const isBusy = (error: unknown): error is ApiError => error instanceof ApiError && error.status === 503;

/** The store of one widget request (`key`: the request as JSON); the same request anywhere on the page shares it. */
export function widgetResultStore(spaceId: string, key: string): ApiStore<WidgetResult> {
  const tries = `${spaceId}|${key}`;
  return apiStore<WidgetResult>(
    widgetResults,
    [spaceId, key],
    async () => {
      $pendingWidgets.set($pendingWidgets.get() + 1);
      try {
        const result = await queryWidget(spaceId, JSON.parse(key) as WidgetQueryBody);
        busyTries.delete(tries);
        return result;
      } catch (error) {
        if (isBusy(error)) busyTries.set(tries, (busyTries.get(tries) ?? 0) + 1);
        else busyTries.delete(tries);
        throw error;
      } finally {
        $pendingWidgets.set($pendingWidgets.get() - 1);
      }
    },
    {
      dedupeTime: Number.POSITIVE_INFINITY,
      revalidateOnFocus: false,
      revalidateOnReconnect: false,
      onErrorRetry: ({ error, retryCount }) =>
        isBusy(error) && retryCount <= BUSY_RETRIES ? (error.retryAfter ?? 2) * 1000 : null,
    },
  );
}

/** Asks one widget request again (its retry button); the next failure counts its busy retries afresh. */
export function retryWidget(spaceId: string, key: string, store: ApiStore<WidgetResult>): void {
  busyTries.delete(`${spaceId}|${key}`);
  store.invalidate();
}

/** A line the open dashboard shows above its widgets: saved, or why a save failed. */
export interface DraftMessage {
  readonly tone: 'success' | 'error';
  readonly text: string;
}

/**
 * The open dashboard as the user edits it: the saved dashboard, the unsaved model every edit changes, whether edit
 * mode is on, a save in flight, the other editor's version after a conflict (409), and the last save's message.
 */
export interface DashboardDraft {
  readonly spaceId: string;
  readonly saved: Dashboard;
  readonly savedModel: DashboardModel;
  readonly model: DashboardModel;
  readonly editing: boolean;
  readonly saving: boolean;
  readonly conflict: Dashboard | null;
  readonly message: DraftMessage | null;
}

/** The explore page's one draft (null until its dashboard has loaded). */
export const $dashboardDraft = atom<DashboardDraft | null>(null);

function updateDraft(change: (draft: DashboardDraft) => Partial<DashboardDraft>): void {
  const draft = $dashboardDraft.get();
  if (draft) $dashboardDraft.set({ ...draft, ...change(draft) });
}

/** Starts the draft from a saved dashboard (page load, a save, taking the other editor's version); edit mode ends. */
export function startDashboardDraft(
  spaceId: string,
  saved: Dashboard,
  message: DraftMessage | null = null,
): DashboardDraft {
  const savedModel = modelOf(saved);
  const draft = {
    spaceId,
    saved,
    savedModel,
    model: savedModel,
    editing: false,
    saving: false,
    conflict: null,
    message,
  };
  $dashboardDraft.set(draft);
  return draft;
}

/** A change of a dashboard's model: the new model, or a change of whatever it is by then. */
export type DashboardEdit = DashboardModel | ((current: DashboardModel) => DashboardModel);

/**
 * An edit of dashboard `id`'s model: a new model, or a change of whatever it is by then. The last message goes. An edit
 * that lands once another dashboard is open (its change code was still loading when the page left it) is dropped: it
 * was made on that dashboard's model and must never become this one's.
 */
export function editDashboard(id: string, next: DashboardEdit): void {
  if ($dashboardDraft.get()?.saved.id !== id) return;
  updateDraft(({ model }) => ({ model: typeof next === 'function' ? next(model) : next, message: null }));
}

/** Turns edit mode on or off; the changes made stay either way. */
export function setDashboardEditing(editing: boolean): void {
  updateDraft(() => ({ editing }));
}

/** Drops the unsaved changes and leaves edit mode. */
export function discardDashboardDraft(): void {
  updateDraft(({ savedModel }) => ({ model: savedModel, editing: false, message: null }));
}

/** Closes the conflict view without choosing; the changes stay unsaved. */
export function dismissDashboardConflict(): void {
  updateDraft(() => ({ conflict: null }));
}

/** Takes the other editor's version (from the conflict view) instead of the unsaved changes. */
export function takeTheirDashboard(): void {
  const draft = $dashboardDraft.get();
  if (draft?.conflict) startDashboardDraft(draft.spaceId, draft.conflict);
}

/**
 * Saves the model over `basedOn` (the saved version; the other editor's to keep mine after a conflict). A newer
 * version on the server opens the conflict view with it; any other failure is the message.
 */
export async function saveDashboardDraft(basedOn?: number): Promise<void> {
  const draft = $dashboardDraft.get();
  if (!draft) return;
  const { spaceId, saved, model } = draft;
  updateDraft(() => ({ saving: true, message: null }));
  try {
    const result = await saveDashboard(spaceId, saved.id, { ...model, version: basedOn ?? saved.version });
    startDashboardDraft(spaceId, result, { tone: 'success', text: `Saved as version ${result.version}.` });
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 409)) {
      updateDraft(() => ({ message: { tone: 'error', text: errorMessage(error) } }));
      return;
    }
    try {
      const theirs = await loadDashboard(spaceId, saved.id);
      updateDraft(() => ({ conflict: theirs }));
    } catch (reload) {
      updateDraft(() => ({ message: { tone: 'error', text: errorMessage(reload) } }));
    }
  } finally {
    updateDraft(() => ({ saving: false }));
  }
}
