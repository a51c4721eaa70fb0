/** The explore page's side panel: a new widget, a change of one, or the dashboard's settings, applied to the draft. */
import { lazy, type RefObject, Suspense, useRef } from 'react';
import type { DashboardModel, TimeRange } from '../../../../contract/dashboards.ts';
import type { DashboardEdit } from '../../../stores/dashboards.ts';
import type * as DraftEdits from '../draft.ts';
import { defaultValues } from '../requests.ts';
import type { Settings } from './SettingsForm.tsx';
import type { WidgetDraft } from './WidgetForm.tsx';

// The drawer loads when a panel is first opened, and stays mounted from then on.
const Drawer = lazy(() => import('../../shared/Drawer.tsx').then((module) => ({ default: module.Drawer })));
// Edit mode's forms load when first opened: a viewer's page never needs them.
const WidgetForm = lazy(() => import('./WidgetForm.tsx').then((module) => ({ default: module.WidgetForm })));
const SettingsForm = lazy(() => import('./SettingsForm.tsx').then((module) => ({ default: module.SettingsForm })));

/** Which panel is open, if any. */
export type Panel = { kind: 'add' } | { kind: 'edit'; id: string } | { kind: 'settings' } | null;

interface Props {
  readonly panel: Panel;
  readonly onClose: () => void;
  readonly spaceId: string;
  readonly model: DashboardModel;
  readonly range: TimeRange;
  readonly values: Record<string, string[]>;
  /** New variables' defaults join the values viewed, without changing the ones already chosen. */
  readonly onValues: (change: (old: Record<string, string[]>) => Record<string, string[]>) => void;
  readonly withEdits: (apply: (edits: typeof DraftEdits) => void) => void;
  /** Changes this dashboard's draft (and no other's). */
  readonly edit: (next: DashboardEdit) => void;
  readonly announce: (text: string) => void;
  readonly returnFocus: RefObject<HTMLButtonElement | null>;
}

export function ExploreDrawer({
  panel,
  onClose,
  spaceId,
  model,
  range,
  values,
  onValues,
  withEdits,
  edit,
  announce,
  returnFocus,
}: Props) {
  const opened = useRef(false);
  if (panel) opened.current = true;
  if (!opened.current) return null;
  const widget = panel?.kind === 'edit' ? model.widgets.find((each) => each.id === panel.id) : undefined;
  const label =
    panel?.kind === 'settings' ? 'Dashboard settings' : panel?.kind === 'edit' ? 'Change widget' : 'New widget';
  return (
    <Suspense fallback={null}>
      <Drawer open={panel !== null} onClose={onClose} label={label} returnFocus={returnFocus} variant="panel">
        <Suspense fallback={<p role="status">Loading the form…</p>}>
          {(panel?.kind === 'add' || (panel?.kind === 'edit' && widget)) && (
            <WidgetForm
              key={panel.kind === 'edit' ? panel.id : 'new'}
              spaceId={spaceId}
              model={model}
              range={range}
              values={values}
              widget={widget ?? null}
              onCancel={onClose}
              onSave={(saved: WidgetDraft) =>
                withEdits((edits) => {
                  if (panel.kind === 'edit') {
                    edit(edits.replaceWidget(model, panel.id, saved));
                    announce(`Changed ${saved.title}.`);
                  } else {
                    edit(edits.addWidget(model, saved).model);
                    announce(`Added ${saved.title} at the bottom of the dashboard.`);
                  }
                  onClose();
                })
              }
            />
          )}
          {panel?.kind === 'settings' && (
            <SettingsForm
              settings={model}
              viewed={range}
              onCancel={onClose}
              onApply={(settings: Settings) => {
                const { description: _old, ...rest } = model;
                edit({ ...rest, ...settings });
                onValues((old) => ({ ...defaultValues(settings), ...old }));
                onClose();
              }}
            />
          )}
        </Suspense>
      </Drawer>
    </Suspense>
  );
}
