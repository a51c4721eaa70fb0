/**
 * One dashboard, full screen: its widgets on a 24-column grid, each drawn by the chart islands; the time
 * range, variables and auto refresh at the top; kiosk mode; and, for analysts and up, edit mode (add, change,
 * duplicate, remove, drag, resize, keyboard moves) with save, discard and a conflict view.
 */

import { useStore } from '@nanostores/react';
import { type CSSProperties, lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import type { Dashboard, Widget } from '../../../contract/dashboards.ts';
import { atLeast } from '../../../contract/roles.ts';
import { buildPath } from '../../lib/routes.ts';
import {
  $dashboard,
  $dashboardDraft,
  type DashboardEdit,
  dismissDashboardConflict,
  editDashboard,
  saveDashboardDraft,
  setDashboardEditing,
  startDashboardDraft,
  takeTheirDashboard,
} from '../../stores/dashboards.ts';
import { $spaceId } from '../../stores/route.ts';
import { $space } from '../../stores/space.ts';
import { withApp } from '../app/with-app.tsx';
import { Alert } from '../shared/Alert.tsx';
import { Loaded } from '../shared/Loaded.tsx';
import { all, useApi } from '../shared/use-api.ts';
import { EditBar } from './explore/EditBar.tsx';
import { ExploreDrawer, type Panel } from './explore/ExploreDrawer.tsx';
import { RefreshControls } from './explore/RefreshControls.tsx';
import { TimeRangePicker } from './explore/TimeRangePicker.tsx';
import { useAutoRefresh, useDraftEdits, useExploreView, useKiosk, useLeaveWarning } from './explore/use-explore.ts';
import { VariableBar } from './explore/VariableBar.tsx';
import { WidgetCard } from './explore/WidgetCard.tsx';
import { readingOrder, sameModel } from './reading.ts';
import { rangeLabel, widgetRequest } from './requests.ts';
import './dashboards.css';

const EditGrid = lazy(() => import('./explore/EditGrid.tsx'));
// The conflict view loads when first needed: a viewer's page never does.
const ConflictPanel = lazy(() =>
  import('./explore/ConflictPanel.tsx').then((module) => ({ default: module.ConflictPanel })),
);

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

/**
 * The draft of `initial`, started when the page opens it (and again for another dashboard). The draft is one for the
 * whole page: one that holds another dashboard (a late answer for the dashboard shown before) is never shown here,
 * and this dashboard's is started again in its place.
 */
function useDraftOf(spaceId: string, initial: Dashboard) {
  const [started] = useState(() => startDashboardDraft(spaceId, initial));
  const draft = useStore($dashboardDraft);
  const mine = draft !== null && draft.saved.id === initial.id;
  useEffect(() => {
    if (!mine) startDashboardDraft(spaceId, initial);
  }, [mine, spaceId, initial]);
  return mine ? draft : started;
}

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
  const { savedModel, model, editing, saving, conflict, message } = useDraftOf(spaceId, initial);
  const { range, values, setValues, now, refreshNow, viewRange, zoom } = useExploreView(savedModel);
  const [refresh, setRefresh] = useState<number>(savedModel.refreshSeconds);
  const [panel, setPanel] = useState<Panel>(null);
  const [announcement, setAnnouncement] = useState('');
  const root = useRef<HTMLDivElement>(null);
  const editButton = useRef<HTMLButtonElement>(null);
  const { kiosk, enterKiosk, leaveKiosk } = useKiosk(root);
  const dirty = canEdit && !sameModel(model, savedModel);
  const withEdits = useDraftEdits(editing);
  // Every change names this dashboard: one whose code loads after the page has moved on changes nothing.
  const edit = (next: DashboardEdit) => editDashboard(initial.id, next);
  useLeaveWarning(dirty);
  useAutoRefresh(refresh, refreshNow);

  const requests = useMemo(
    () => new Map(model.widgets.map((widget) => [widget.id, widgetRequest(widget, model, range, values, now)])),
    [model, range, values, now],
  );

  const renderWidget = (widget: Widget) => {
    const request = requests.get(widget.id);
    if (!request) return null;
    return (
      <WidgetCard
        spaceId={spaceId}
        widget={widget}
        request={request}
        editing={editing}
        onType={(type) => withEdits((edits) => edit(edits.setWidgetType(model, widget.id, type)))}
        onZoom={zoom}
        onEdit={() => setPanel({ kind: 'edit', id: widget.id })}
        onDuplicate={() =>
          withEdits((edits) => {
            edit(edits.duplicateWidget(model, widget.id).model);
            setAnnouncement(`Added a copy of ${widget.title} at the bottom.`);
          })
        }
        onRemove={() =>
          withEdits((edits) => {
            edit(edits.removeWidget(model, widget.id));
            setAnnouncement(`Removed ${widget.title}. Discard changes brings it back.`);
          })
        }
        onNudge={({ dx, dy, dw, dh }) =>
          withEdits((edits) => {
            const next =
              dx || dy ? edits.moveWidget(model, widget.id, dx, dy) : edits.resizeWidget(model, widget.id, dw, dh);
            edit(next);
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

  return (
    <div ref={root} className={`sg-dash${kiosk ? ' sg-dash--kiosk' : ''}${editing ? ' sg-dash--editing' : ''}`}>
      {kiosk ? (
        <div className="sg-dash__kiosk-bar">
          <h1 className="sg-dash__title">{model.title}</h1>
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
            <h1 className="sg-dash__title">{model.title}</h1>
            {model.description && <p className="muted sg-dash__description">{model.description}</p>}
          </div>
          <div className="sg-dash__controls">
            <TimeRangePicker range={range} onChange={viewRange} />
            <RefreshControls seconds={refresh} onChange={setRefresh} range={range} onRefreshNow={refreshNow} />
            <button type="button" className="button secondary" onClick={enterKiosk}>
              Full screen
            </button>
            <button
              type="button"
              className="button secondary"
              onClick={() => void import('./dashboard-file.ts').then((file) => file.downloadDashboard(model))}
            >
              Export JSON
            </button>
            {canEdit && !editing && (
              <button ref={editButton} type="button" className="button" onClick={() => setDashboardEditing(true)}>
                Edit
              </button>
            )}
          </div>
          <VariableBar
            spaceId={spaceId}
            variables={model.variables}
            range={range}
            now={now}
            values={values}
            onChange={(name, next) => setValues((old) => ({ ...old, [name]: next }))}
          />
          {canEdit && (editing || dirty) && (
            <EditBar editing={editing} dirty={dirty} saving={saving} onPanel={(kind) => setPanel({ kind })} />
          )}
        </header>
      )}
      {message && <Alert tone={message.tone}>{message.text}</Alert>}
      {conflict && (
        <Suspense fallback={<p role="status">Loading both versions…</p>}>
          <ConflictPanel
            base={savedModel}
            mine={model}
            theirs={conflict}
            onKeepMine={() => void saveDashboardDraft(conflict.version)}
            onTakeTheirs={takeTheirDashboard}
            onCancel={dismissDashboardConflict}
          />
        </Suspense>
      )}
      <p className="visually-hidden" aria-live="polite">
        {announcement}
      </p>
      {model.widgets.length === 0 ? (
        <div className="card panel sg-empty">
          <p>This dashboard has no widgets yet.</p>
          {canEdit ? (
            <button
              type="button"
              className="button"
              onClick={() => {
                setDashboardEditing(true);
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
            widgets={model.widgets}
            onLayout={(layout) => withEdits((edits) => edit((current) => edits.applyLayout(current, layout)))}
            render={renderWidget}
          />
        </Suspense>
      ) : (
        <div className="sg-dash__grid">
          {readingOrder(model.widgets).map((widget) => (
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
      <ExploreDrawer
        panel={panel}
        onClose={() => setPanel(null)}
        spaceId={spaceId}
        model={model}
        range={range}
        values={values}
        onValues={setValues}
        withEdits={withEdits}
        edit={edit}
        announce={setAnnouncement}
        returnFocus={editButton}
      />
    </div>
  );
}

export default withApp(ExploreScreen);
