/**
 * The space's dashboards: title, widgets, default, last change; create (empty or from a template),
 * import a JSON file, export, duplicate, make default and delete. Viewers list, open and export.
 */

import { useStore } from '@nanostores/react';
import { type FormEvent, type ReactNode, useRef, useState } from 'react';
import {
  type DashboardTemplateId,
  dashboardTemplateIds,
  dashboardTemplates,
} from '../../../contract/constants/dashboard-templates.ts';
import { dashboardLimits } from '../../../contract/constants/dashboards.ts';
import { planTerms } from '../../../contract/constants/plans.ts';
import { modelOf } from '../../../contract/dashboard-rules.ts';
import type { DashboardModel, DashboardSummary } from '../../../contract/dashboards.ts';
import { atLeast } from '../../../contract/roles.ts';
import { ApiError, errorMessage } from '../../lib/api.ts';
import { buildPath } from '../../lib/routes.ts';
import {
  $dashboards,
  createDashboard,
  deleteDashboard,
  duplicateDashboard,
  loadDashboard,
  makeDefaultDashboard,
} from '../../stores/dashboards.ts';
import { $spaceId } from '../../stores/route.ts';
import { $space } from '../../stores/space.ts';
import { withApp } from '../app/with-app.tsx';
import { Alert } from '../shared/Alert.tsx';
import { ConfirmButton } from '../shared/ConfirmButton.tsx';
import { Drawer } from '../shared/Drawer.tsx';
import { Field } from '../shared/Field.tsx';
import { dateTime } from '../shared/format.ts';
import { Loaded } from '../shared/Loaded.tsx';
import { navigate } from '../shared/navigate.ts';
import { isPlanLimit, PlanLimitNotice } from '../shared/PlanLimitNotice.tsx';
import { SelectField } from '../shared/SelectField.tsx';
import { TableScroll } from '../shared/TableScroll.tsx';
import { all, useApi } from '../shared/use-api.ts';
import './dashboards.css';

type Notice = { tone: 'success' | 'error'; text: ReactNode } | null;

const exploreHref = (spaceId: string, id: string) =>
  buildPath('/console/dashboard/explore/{space_id}/{id}', { space_id: spaceId, id });

/** A refusal past the plan's limit links to the upgrade page (`PlanLimitNotice`); other failures say what went wrong. */
function failure(error: unknown): ReactNode {
  if (isPlanLimit(error)) return <PlanLimitNotice error={error} />;
  return errorMessage(error);
}

function DashboardsScreen() {
  const spaceId = useStore($spaceId);
  const list = useApi($dashboards);
  const space = useApi($space);
  const loaded = all(list.loaded, space.loaded);
  const [notice, setNotice] = useState<Notice>(null);
  const [creating, setCreating] = useState(false);
  const [importProblems, setImportProblems] = useState<string[]>([]);
  const newButton = useRef<HTMLButtonElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  return (
    <Loaded spaceId={spaceId} loaded={loaded} retry={list.retry} loading="Loading dashboards…">
      {(data, _view, spaceId) => {
        const [{ items, limit }, { role, plan }] = data;
        const canEdit = atLeast(role, 'analyst');
        const run = async (action: () => Promise<ReactNode>) => {
          setNotice(null);
          try {
            setNotice({ tone: 'success', text: await action() });
          } catch (error) {
            setNotice({ tone: 'error', text: failure(error) });
          }
        };
        const exportOne = (item: DashboardSummary) =>
          run(async () => {
            const [dashboard, { downloadDashboard }] = await Promise.all([
              loadDashboard(spaceId, item.id),
              import('./dashboard-file.ts'),
            ]);
            downloadDashboard(modelOf(dashboard));
            return `Exported ${item.title}.`;
          });
        const importFile = async (file: File) => {
          setImportProblems([]);
          setNotice(null);
          // Reading and exporting files load when first used.
          const { readDashboardFile, refusalLines } = await import('./dashboard-file.ts');
          const read = await readDashboardFile(file);
          if (!read.ok) {
            setImportProblems(read.problems);
            return;
          }
          try {
            // The API checks the model with the one schema and names every problem by its path.
            const created = await createDashboard(spaceId, read.json as DashboardModel);
            setNotice({
              tone: 'success',
              text: (
                <>
                  Imported <a href={exploreHref(spaceId, created.id)}>{created.title}</a> with {created.widgets.length}{' '}
                  widgets.
                </>
              ),
            });
          } catch (error) {
            if (error instanceof ApiError && error.status === 400)
              setImportProblems(refusalLines(error.fields, error.message));
            else setNotice({ tone: 'error', text: failure(error) });
          }
        };

        return (
          <div className="sg-dashboards stack">
            <div className="row sg-dashboards__head">
              <p className="muted">
                {items.length} of {limit ?? 'unlimited'} dashboards on the {planTerms[plan].label} plan.
              </p>
              {canEdit && (
                <div className="row">
                  <button ref={newButton} type="button" className="button" onClick={() => setCreating(true)}>
                    New dashboard
                  </button>
                  <label className="button secondary sg-dashboards__import">
                    Import JSON
                    <input
                      ref={fileInput}
                      type="file"
                      accept="application/json,.json"
                      className="visually-hidden"
                      onChange={(event) => {
                        const file = event.target.files?.[0];
                        event.target.value = '';
                        if (file) void importFile(file);
                      }}
                    />
                  </label>
                </div>
              )}
            </div>
            {notice && <Alert tone={notice.tone}>{notice.text}</Alert>}
            {importProblems.length > 0 && (
              <div className="alert alert--error" role="alert">
                <p>This file is not a dashboard we can import:</p>
                <ul>
                  {importProblems.slice(0, 20).map((problem) => (
                    <li key={problem}>{problem}</li>
                  ))}
                </ul>
                {importProblems.length > 20 && <p>…and {importProblems.length - 20} more.</p>}
              </div>
            )}
            {items.length === 0 ? (
              <p className="sg-empty">No dashboards yet.</p>
            ) : (
              <TableScroll label="Dashboards">
                <table className="data sg-dashboards__table">
                  <thead>
                    <tr>
                      <th scope="col">Title</th>
                      <th scope="col">Widgets</th>
                      <th scope="col">Last changed</th>
                      <th scope="col">
                        <span className="visually-hidden">Actions</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {items.map((item) => (
                      <tr key={item.id}>
                        <td>
                          <a href={exploreHref(spaceId, item.id)}>{item.title}</a>
                          {item.isDefault && <span className="sg-badge"> Default</span>}
                          {item.description && <p className="muted sg-dashboards__description">{item.description}</p>}
                        </td>
                        <td>{item.widgets}</td>
                        <td>
                          {dateTime(item.updatedAt)}
                          {item.updatedBy.name && <span className="muted"> by {item.updatedBy.name}</span>}
                        </td>
                        <td>
                          <div className="row sg-dashboards__actions">
                            <button
                              type="button"
                              className="button secondary"
                              aria-label={`Export ${item.title}`}
                              onClick={() => void exportOne(item)}
                            >
                              Export
                            </button>
                            {canEdit && (
                              <button
                                aria-label={`Duplicate ${item.title}`}
                                type="button"
                                className="button secondary"
                                onClick={() =>
                                  void run(async () => {
                                    const copy = await duplicateDashboard(spaceId, item.id);
                                    return `Created ${copy.title}.`;
                                  })
                                }
                              >
                                Duplicate
                              </button>
                            )}
                            {canEdit && !item.isDefault && (
                              <button
                                aria-label={`Make default ${item.title}`}
                                type="button"
                                className="button secondary"
                                onClick={() =>
                                  void run(async () => {
                                    await makeDefaultDashboard(spaceId, item.id);
                                    return `${item.title} is now the space's default dashboard.`;
                                  })
                                }
                              >
                                Make default
                              </button>
                            )}
                            {canEdit && !item.isDefault && (
                              <ConfirmButton
                                label="Delete"
                                ariaLabel={`Delete ${item.title}`}
                                question={`Delete ${item.title} for everyone in this space?`}
                                confirmLabel="Delete dashboard"
                                onConfirm={() =>
                                  run(async () => {
                                    await deleteDashboard(spaceId, item.id);
                                    return `Deleted ${item.title}.`;
                                  })
                                }
                              />
                            )}
                          </div>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableScroll>
            )}
            <Drawer
              open={creating}
              onClose={() => setCreating(false)}
              label="New dashboard"
              returnFocus={newButton}
              variant="panel"
            >
              {creating && (
                <CreateForm
                  onCancel={() => setCreating(false)}
                  onCreate={async (title, template) => {
                    const model = { ...dashboardTemplates[template].model, title };
                    const created = await createDashboard(spaceId, model);
                    setCreating(false);
                    navigate(exploreHref(spaceId, created.id));
                  }}
                  failure={failure}
                />
              )}
            </Drawer>
          </div>
        );
      }}
    </Loaded>
  );
}

function CreateForm({
  onCreate,
  onCancel,
  failure,
}: {
  onCreate: (title: string, template: DashboardTemplateId) => Promise<void>;
  onCancel: () => void;
  failure: (error: unknown) => ReactNode;
}) {
  const [title, setTitle] = useState('');
  const [template, setTemplate] = useState<DashboardTemplateId>('empty');
  const [problem, setProblem] = useState<string | null>(null);
  const [error, setError] = useState<ReactNode>(null);
  const [pending, setPending] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!title.trim()) {
      setProblem('Give the dashboard a title.');
      return;
    }
    setProblem(null);
    setPending(true);
    try {
      await onCreate(title.trim(), template);
    } catch (caught) {
      setError(failure(caught));
      setPending(false);
    }
  };
  return (
    <form className="stack" onSubmit={(event) => void submit(event)} noValidate aria-label="New dashboard">
      {error && <Alert tone="error">{error}</Alert>}
      <Field
        label="Title"
        name="title"
        value={title}
        onChange={(e) => setTitle(e.target.value)}
        error={problem ?? undefined}
        maxLength={dashboardLimits.title}
      />
      <SelectField
        label="Start from"
        name="template"
        value={template}
        onChange={(e) => setTemplate(e.target.value as DashboardTemplateId)}
        options={dashboardTemplateIds.map((id) => ({ value: id, label: dashboardTemplates[id].label }))}
      />
      <div className="row">
        <button type="submit" className="button" disabled={pending}>
          {pending ? 'Creating…' : 'Create dashboard'}
        </button>
        <button type="button" className="button secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

export default withApp(DashboardsScreen);
