/**
 * One dashboard, full screen (issue #17): its widgets on a 24-column grid, each drawn by the chart islands; the time
 * range, variables and auto refresh at the top; kiosk mode; and, for analysts and up, edit mode (add, change,
 * duplicate, remove, drag, resize, keyboard moves) with save, discard and a conflict view.
 */

import { useStore } from '@nanostores/react';
import { type CSSProperties, lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { refreshIntervals } from '../../../contract/constants/dashboards.ts';
import { modelOf } from '../../../contract/dashboard-rules.ts';
import type { Dashboard, DashboardModel, TimeRange, Widget } from '../../../contract/dashboards.ts';
import { atLeast } from '../../../contract/roles.ts';
import { ApiError, errorMessage } from '../../lib/api.ts';
import { buildPath } from '../../lib/routes.ts';
import { $dashboard, $pendingWidgets, loadDashboard, saveDashboard, widgetResults } from '../../stores/dashboards.ts';
import { invalidateApi } from '../../stores/fetcher.ts';
import { $spaceId } from '../../stores/route.ts';
import { $space } from '../../stores/space.ts';
import { withApp } from '../app/with-app.tsx';
import { Alert } from '../shared/Alert.tsx';
import { Loaded } from '../shared/Loaded.tsx';
import { all, useApi } from '../shared/use-api.ts';
import { replaceUrl } from '../shared/use-url-view.ts';
import type * as DraftEdits from './draft.ts';
import type { Settings } from './explore/SettingsForm.tsx';
import { TimeRangePicker } from './explore/TimeRangePicker.tsx';
import { VariableBar } from './explore/VariableBar.tsx';
import { WidgetCard } from './explore/WidgetCard.tsx';
import type { WidgetDraft } from './explore/WidgetForm.tsx';
import { readingOrder, sameModel } from './reading.ts';
import { defaultValues, isRelative, rangeLabel, refreshLabel, widgetRequest } from './requests.ts';
import { readExploreView, writeExploreView } from './view-url.ts';
import './dashboards.css';

const EditGrid = lazy(() => import('./explore/EditGrid.tsx'));
// The side panel's drawer loads when a panel is first opened, and stays mounted from then on.
const Drawer = lazy(() => import('../shared/Drawer.tsx').then((module) => ({ default: module.Drawer })));
// Edit mode's forms and the conflict view load when first opened: a viewer's page never needs them.
const WidgetForm = lazy(() => import('./explore/WidgetForm.tsx').then((module) => ({ default: module.WidgetForm })));
const SettingsForm = lazy(() =>
  import('./explore/SettingsForm.tsx').then((module) => ({ default: module.SettingsForm })),
);
const ConflictPanel = lazy(() =>
  import('./explore/ConflictPanel.tsx').then((module) => ({ default: module.ConflictPanel })),
);

/**
 * The draft's changes (draft.ts), loaded when edit mode starts or on the first change: `withEdits(apply)` runs `apply`
 * with them at once when they are loaded, else as soon as they are.
 */
function useDraftEdits(warm: boolean): (apply: (edits: typeof DraftEdits) => void) => void {
  const [edits, setEdits] = useState<typeof DraftEdits | null>(null);
  const load = useCallback(
    () =>
      import('./draft.ts').then((module) => {
        setEdits(() => module);
        return module;
      }),
    [],
  );
  useEffect(() => {
    if (warm && !edits) void load();
  }, [warm, edits, load]);
  return (apply) => (edits ? apply(edits) : void load().then(apply));
}

function ExploreScreen() {
  const spaceId = useStore($spaceId);
  const space = useApi($space);
  const dashboard = useApi($dashboard);
  // Until the dashboard's own title is known, the page's heading is the route's.
  const heading = <h1 className="sg-dash__title">Dashboard</h1>;
  const loaded = all(dashboard.loaded, space.loaded);
  const listHref = spaceId ? buildPath('/console/dashboard/{space_id}', { space_id: spaceId }) : '/spaces';
  return (
    <>
      {!(spaceId && loaded.state === 'ready') && heading}
      <Loaded
        spaceId={spaceId}
        loaded={loaded}
        retry={dashboard.retry}
        loading={
          <p role="status" className="sg-dash__loading">
            Loading the dashboard…
          </p>
        }
        notFound="This dashboard does not exist, or you are not a member of its space."
        back={{ href: listHref, label: 'Back to dashboards' }}
      >
        {([detail, { role }], _view, spaceId) => (
          <Explore
            key={detail.id}
            spaceId={spaceId}
            listHref={listHref}
            initial={detail}
            canEdit={atLeast(role, 'analyst')}
          />
        )}
      </Loaded>
    </>
  );
}

type Panel = { kind: 'add' } | { kind: 'edit'; id: string } | { kind: 'settings' } | null;

function Explore({
  spaceId,
  listHref,
  initial,
  canEdit,
}: {
  spaceId: string;
  listHref: string;
  initial: Dashboard;
  canEdit: boolean;
}) {
  const [saved, setSaved] = useState(initial);
  const savedModel = useMemo(() => modelOf(saved), [saved]);
  const [draft, setDraft] = useState<DashboardModel>(savedModel);
  const [editing, setEditing] = useState(false);
  // The range and variable values start from the URL (a shared link, a reload), else the dashboard's defaults.
  const [fromUrl] = useState(() => readExploreView(location.search, savedModel));
  const [range, setRange] = useState<TimeRange>(fromUrl.range);
  const [refresh, setRefresh] = useState<number>(savedModel.refreshSeconds);
  const [values, setValues] = useState<Record<string, string[]>>(fromUrl.values);
  const [now, setNow] = useState(() => Date.now());
  const [kiosk, setKiosk] = useState(false);
  const [panel, setPanel] = useState<Panel>(null);
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const [saving, setSaving] = useState(false);
  const [conflict, setConflict] = useState<Dashboard | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const root = useRef<HTMLDivElement>(null);
  const editButton = useRef<HTMLButtonElement>(null);
  const dirty = canEdit && !sameModel(draft, savedModel);
  const withEdits = useDraftEdits(editing);

  // …and go back to it as they change, so the address always shows this view.
  useEffect(() => {
    const search = writeExploreView({ range, values }, savedModel);
    replaceUrl((url) => {
      url.search = search;
    });
  }, [range, values, savedModel]);

  // Leaving with unsaved changes asks first.
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = '';
    };
    addEventListener('beforeunload', warn);
    return () => removeEventListener('beforeunload', warn);
  }, [dirty]);

  // Auto refresh: a new round moves `now` (relative ranges ask again); skipped while the tab is hidden or a round
  // is still loading, so rounds never stack.
  useEffect(() => {
    if (refresh === 0) return;
    const tick = () => {
      if (document.hidden || $pendingWidgets.get() > 0) return;
      setNow(Date.now());
    };
    const timer = setInterval(tick, refresh * 1000);
    const visible = () => {
      if (!document.hidden) tick();
    };
    document.addEventListener('visibilitychange', visible);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', visible);
    };
  }, [refresh]);

  // Kiosk mode follows the browser's full screen, and Escape leaves it.
  useEffect(() => {
    if (!kiosk) return;
    const left = () => {
      if (!document.fullscreenElement) setKiosk(false);
    };
    const onEscape = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setKiosk(false);
    };
    document.addEventListener('fullscreenchange', left);
    addEventListener('keydown', onEscape);
    return () => {
      document.removeEventListener('fullscreenchange', left);
      removeEventListener('keydown', onEscape);
    };
  }, [kiosk]);
  const enterKiosk = (): void => {
    setKiosk(true);
    root.current?.requestFullscreen?.().catch(() => {
      // Full screen refused (an embedded page, a test browser): kiosk mode still hides the controls.
    });
  };
  const leaveKiosk = (): void => {
    setKiosk(false);
    if (document.fullscreenElement) void document.exitFullscreen();
  };

  const zoom = useCallback((from: number, to: number) => {
    setRange({ from: new Date(from).toISOString(), to: new Date(to).toISOString() });
    setNow(Date.now());
  }, []);

  const requests = useMemo(
    () => new Map(draft.widgets.map((widget) => [widget.id, widgetRequest(widget, draft, range, values, now)])),
    [draft, range, values, now],
  );

  /** A change of the dashboard being edited: a new model, or a change of whatever it is by then. */
  const change = (next: DashboardModel | ((current: DashboardModel) => DashboardModel)): void => {
    setDraft(next);
    setMessage(null);
  };

  const save = async (basedOn: number = saved.version): Promise<void> => {
    setSaving(true);
    setMessage(null);
    try {
      const result = await saveDashboard(spaceId, saved.id, { ...draft, version: basedOn });
      setSaved(result);
      setDraft(modelOf(result));
      setConflict(null);
      setEditing(false);
      setMessage({ tone: 'success', text: `Saved as version ${result.version}.` });
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) {
        try {
          setConflict(await loadDashboard(spaceId, saved.id));
        } catch (reload) {
          setMessage({ tone: 'error', text: errorMessage(reload) });
        }
      } else {
        setMessage({ tone: 'error', text: errorMessage(error) });
      }
    } finally {
      setSaving(false);
    }
  };

  const discard = (): void => {
    setDraft(savedModel);
    setEditing(false);
    setMessage(null);
  };

  const renderWidget = (widget: Widget) => {
    const request = requests.get(widget.id);
    if (!request) return null;
    return (
      <WidgetCard
        spaceId={spaceId}
        widget={widget}
        request={request}
        editing={editing}
        onType={(type) => withEdits((edits) => change(edits.setWidgetType(draft, widget.id, type)))}
        onZoom={zoom}
        onEdit={() => setPanel({ kind: 'edit', id: widget.id })}
        onDuplicate={() =>
          withEdits((edits) => {
            change(edits.duplicateWidget(draft, widget.id).model);
            setAnnouncement(`Added a copy of ${widget.title} at the bottom.`);
          })
        }
        onRemove={() =>
          withEdits((edits) => {
            change(edits.removeWidget(draft, widget.id));
            setAnnouncement(`Removed ${widget.title}. Discard changes brings it back.`);
          })
        }
        onNudge={({ dx, dy, dw, dh }) =>
          withEdits((edits) => {
            const next =
              dx || dy ? edits.moveWidget(draft, widget.id, dx, dy) : edits.resizeWidget(draft, widget.id, dw, dh);
            change(next);
            const pos = next.widgets.find((w) => w.id === widget.id)?.gridPos;
            if (pos)
              setAnnouncement(
                `${widget.title}: column ${pos.x + 1}, row ${pos.y + 1}, ${pos.w} columns wide, ${pos.h} rows tall.`,
              );
          })
        }
      />
    );
  };

  const editing_ = panel?.kind === 'edit' ? draft.widgets.find((widget) => widget.id === panel.id) : undefined;
  const panelOpened = useRef(false);
  if (panel) panelOpened.current = true;
  const ordered = readingOrder(draft.widgets);

  return (
    <div ref={root} className={`sg-dash${kiosk ? ' sg-dash--kiosk' : ''}${editing ? ' sg-dash--editing' : ''}`}>
      {kiosk ? (
        <div className="sg-dash__kiosk-bar">
          <h1 className="sg-dash__title">{draft.title}</h1>
          <span className="muted">{rangeLabel(range)}</span>
          <button type="button" className="button secondary" onClick={leaveKiosk}>
            Exit full screen
          </button>
        </div>
      ) : (
        <header className="sg-dash__bar">
          <div className="sg-dash__heading">
            <a
              href={listHref}
              className="sg-dash__back"
              onClick={(event) => {
                if (dirty && !confirm('Leave this dashboard without saving your changes?')) event.preventDefault();
              }}
            >
              ← Dashboards
            </a>
            <h1 className="sg-dash__title">{draft.title}</h1>
            {draft.description && <p className="muted sg-dash__description">{draft.description}</p>}
          </div>
          <div className="sg-dash__controls">
            <TimeRangePicker
              range={range}
              onChange={(next) => {
                setRange(next);
                setNow(Date.now());
              }}
            />
            <span className="sg-dash__refresh">
              <label htmlFor="dash-refresh">Auto refresh</label>
              <select id="dash-refresh" value={refresh} onChange={(event) => setRefresh(Number(event.target.value))}>
                {refreshIntervals.map((seconds) => (
                  <option key={seconds} value={seconds}>
                    {refreshLabel(seconds)}
                  </option>
                ))}
              </select>
            </span>
            <button
              type="button"
              className="button secondary"
              onClick={() => {
                if (!isRelative(range)) invalidateApi(widgetResults);
                setNow(Date.now());
              }}
            >
              Refresh now
            </button>
            <button type="button" className="button secondary" onClick={enterKiosk}>
              Full screen
            </button>
            <button
              type="button"
              className="button secondary"
              onClick={() => void import('./dashboard-file.ts').then((file) => file.downloadDashboard(draft))}
            >
              Export JSON
            </button>
            {canEdit && !editing && (
              <button ref={editButton} type="button" className="button" onClick={() => setEditing(true)}>
                Edit
              </button>
            )}
          </div>
          <VariableBar
            spaceId={spaceId}
            variables={draft.variables}
            range={range}
            now={now}
            values={values}
            onChange={(name, next) => setValues((old) => ({ ...old, [name]: next }))}
          />
          {canEdit && (editing || dirty) && (
            <section className="sg-dash__editbar" aria-label="Edit dashboard">
              {editing && (
                <>
                  <button type="button" className="button" onClick={() => setPanel({ kind: 'add' })}>
                    Add widget
                  </button>
                  <button type="button" className="button secondary" onClick={() => setPanel({ kind: 'settings' })}>
                    Dashboard settings
                  </button>
                </>
              )}
              <span className="sg-dash__dirty" role="status">
                {dirty ? 'Unsaved changes' : 'No changes yet'}
              </span>
              <button type="button" className="button" disabled={!dirty || saving} onClick={() => void save()}>
                {saving ? 'Saving…' : 'Save'}
              </button>
              <button type="button" className="button secondary" onClick={discard}>
                {dirty ? 'Discard changes' : 'Done'}
              </button>
            </section>
          )}
        </header>
      )}
      {message && <Alert tone={message.tone}>{message.text}</Alert>}
      {conflict && (
        <Suspense fallback={<p role="status">Loading both versions…</p>}>
          <ConflictPanel
            base={savedModel}
            mine={draft}
            theirs={conflict}
            onKeepMine={() => void save(conflict.version)}
            onTakeTheirs={() => {
              setSaved(conflict);
              setDraft(modelOf(conflict));
              setConflict(null);
              setEditing(false);
            }}
            onCancel={() => setConflict(null)}
          />
        </Suspense>
      )}
      <p className="visually-hidden" aria-live="polite">
        {announcement}
      </p>
      {draft.widgets.length === 0 ? (
        <div className="card panel sg-empty">
          <p>This dashboard has no widgets yet.</p>
          {canEdit ? (
            <button
              type="button"
              className="button"
              onClick={() => {
                setEditing(true);
                setPanel({ kind: 'add' });
              }}
            >
              Add a widget
            </button>
          ) : (
            <p className="muted">An analyst, admin or owner of this space can add some.</p>
          )}
        </div>
      ) : editing ? (
        <Suspense fallback={<p role="status">Loading the editor…</p>}>
          <EditGrid
            widgets={draft.widgets}
            onLayout={(layout) => withEdits((edits) => change((current) => edits.applyLayout(current, layout)))}
            render={renderWidget}
          />
        </Suspense>
      ) : (
        <div className="sg-dash__grid">
          {ordered.map((widget) => (
            <div
              key={widget.id}
              className="sg-dash__cell"
              style={
                {
                  '--grid-column': `${widget.gridPos.x + 1} / span ${widget.gridPos.w}`,
                  '--grid-row': `${widget.gridPos.y + 1} / span ${widget.gridPos.h}`,
                } as CSSProperties
              }
            >
              {renderWidget(widget)}
            </div>
          ))}
        </div>
      )}
      {panelOpened.current && (
        <Suspense fallback={null}>
          <Drawer
            open={panel !== null}
            onClose={() => setPanel(null)}
            label={
              panel?.kind === 'settings'
                ? 'Dashboard settings'
                : panel?.kind === 'edit'
                  ? 'Change widget'
                  : 'New widget'
            }
            returnFocus={editButton}
            variant="panel"
          >
            <Suspense fallback={<p role="status">Loading the form…</p>}>
              {(panel?.kind === 'add' || (panel?.kind === 'edit' && editing_)) && (
                <WidgetForm
                  key={panel.kind === 'edit' ? panel.id : 'new'}
                  spaceId={spaceId}
                  model={draft}
                  range={range}
                  values={values}
                  widget={editing_ ?? null}
                  onCancel={() => setPanel(null)}
                  onSave={(widget: WidgetDraft) =>
                    withEdits((edits) => {
                      if (panel.kind === 'edit') {
                        change(edits.replaceWidget(draft, panel.id, widget));
                        setAnnouncement(`Changed ${widget.title}.`);
                      } else {
                        change(edits.addWidget(draft, widget).model);
                        setAnnouncement(`Added ${widget.title} at the bottom of the dashboard.`);
                      }
                      setPanel(null);
                    })
                  }
                />
              )}
              {panel?.kind === 'settings' && (
                <SettingsForm
                  settings={draft}
                  viewed={range}
                  onCancel={() => setPanel(null)}
                  onApply={(settings: Settings) => {
                    const { description: _old, ...rest } = draft;
                    change({ ...rest, ...settings });
                    setValues((old) => ({ ...defaultValues(settings), ...old }));
                    setPanel(null);
                  }}
                />
              )}
            </Suspense>
          </Drawer>
        </Suspense>
      )}
    </div>
  );
}

export default withApp(ExploreScreen);
