/** Adds or changes a widget: title, query (metric, field, grouping, filter) and chart type, with a live preview of its result. */
import { type FormEvent, type ReactNode, useEffect, useId, useMemo, useState } from 'react';
import {
  type DashboardField,
  dashboardFieldLabels,
  dashboardFieldNames,
  dashboardFields,
  dashboardLimits,
  type GroupKind,
  type TimeInterval,
  timeIntervals,
  type WidgetMetric,
  type WidgetType,
  widgetMetricLabels,
  widgetMetrics,
  widgetTypeLabels,
} from '../../../../contract/constants/dashboards.ts';
import { filterProblem } from '../../../../contract/dashboard-filter.ts';
import type { VariableValues } from '../../../../contract/dashboard-rules.ts';
import { defaultTypeFor, metricProblem, typesFor } from '../../../../contract/dashboard-rules.ts';
import type { DashboardModel, GroupBy, TimeRange, Widget } from '../../../../contract/dashboards.ts';
import { errorMessage } from '../../../lib/api.ts';
import { Field } from '../../shared/Field.tsx';
import { SelectField } from '../../shared/SelectField.tsx';
import { widgetRequest } from '../requests.ts';
import { useWidgetResult } from './use-widget-result.ts';
import { WidgetBoundary } from './WidgetBoundary.tsx';
import { isEmptyResult, WidgetView } from './WidgetView.tsx';

export type WidgetDraft = Omit<Widget, 'id' | 'gridPos'>;

interface Props {
  readonly spaceId: string;
  readonly model: Pick<DashboardModel, 'variables'>;
  readonly range: TimeRange;
  readonly values: VariableValues;
  /** The widget being changed, or null for a new one. */
  readonly widget: WidgetDraft | null;
  readonly onSave: (widget: WidgetDraft) => void;
  readonly onCancel: () => void;
}

const intervalLabels: Record<TimeInterval, string> = {
  auto: 'Automatic (about 60 buckets)',
  '1m': '1 minute',
  '5m': '5 minutes',
  '1h': '1 hour',
  '1d': '1 day',
};

/** Waits until a value has been still for `ms` (the preview asks once typing pauses). */
function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

export function WidgetForm({ spaceId, model, range, values, widget, onSave, onCancel }: Props) {
  const [title, setTitle] = useState(widget?.title ?? '');
  // A new widget's type follows its grouping's default (defaultTypeFor) until the user picks one.
  const [chosenType, setType] = useState<WidgetType | null>(widget?.type ?? null);
  const [metric, setMetric] = useState<WidgetMetric>(widget?.query.metric ?? 'count');
  const [field, setField] = useState<DashboardField | ''>(widget?.query.field ?? '');
  const [groupKind, setGroupKind] = useState<GroupKind>(widget?.query.groupBy.kind ?? 'time');
  const initialGroup = widget?.query.groupBy;
  const [interval, setInterval] = useState<TimeInterval>(
    initialGroup?.kind === 'time' ? (initialGroup.interval ?? 'auto') : 'auto',
  );
  const [groupField, setGroupField] = useState<DashboardField>(
    initialGroup?.kind === 'field' ? initialGroup.field : 'country',
  );
  const [limit, setLimit] = useState(
    String(initialGroup?.kind === 'field' ? (initialGroup.limit ?? dashboardLimits.fieldLimitDefault) : 10),
  );
  const [filter, setFilter] = useState(widget?.query.filter ?? '');
  const [shown, setShown] = useState<Record<string, string>>({});
  const ids = { metric: useId(), preview: useId() };

  const groupBy = useMemo<GroupBy>(() => {
    if (groupKind === 'time') return { kind: 'time', interval };
    if (groupKind === 'field') {
      const n = Number(limit);
      return { kind: 'field', field: groupField, ...(Number.isInteger(n) && n > 0 ? { limit: n } : {}) };
    }
    return { kind: 'none' };
  }, [groupKind, interval, groupField, limit]);
  const types = typesFor(groupBy);
  const type = chosenType ?? defaultTypeFor(groupBy);
  // A grouping the chosen type cannot draw picks the first type that can.
  useEffect(() => {
    if (chosenType && !types.includes(chosenType) && types[0]) setType(types[0]);
  }, [types, chosenType]);

  const chosenField = metric === 'count' ? undefined : field || undefined;
  const draft: WidgetDraft = {
    title: title.trim(),
    type: types.includes(type) ? type : (types[0] ?? type),
    query: { metric, ...(chosenField ? { field: chosenField } : {}), groupBy, filter: filter.trim() },
  };
  const problems: Record<string, string> = {};
  if (!draft.title) problems.title = 'Give the widget a title.';
  const metricIssue = metricProblem(metric, chosenField);
  if (metricIssue) problems.field = metricIssue;
  const filterIssue = filterProblem(draft.query.filter, model.variables);
  if (filterIssue) problems.filter = filterIssue;
  const limitNumber = Number(limit);
  if (groupKind === 'field' && !(Number.isInteger(limitNumber) && limitNumber >= 1 && limitNumber <= 100))
    problems.limit = `Show 1 to ${dashboardLimits.fieldLimitMax} values.`;

  const previewable = !problems.field && !problems.filter && !problems.limit;
  const settled = useSettled(previewable ? JSON.stringify(draft) : null, 400);
  const previewWidget = useMemo(
    () =>
      settled
        ? ({ ...(JSON.parse(settled) as WidgetDraft), id: 'preview', gridPos: { x: 0, y: 0, w: 12, h: 6 } } as Widget)
        : null,
    [settled],
  );
  const request = useMemo(
    () => (previewWidget ? widgetRequest(previewWidget, model, range, values, Date.now()) : null),
    [previewWidget, model, range, values],
  );
  const preview = useWidgetResult(spaceId, request);

  const submit = (event: FormEvent): void => {
    event.preventDefault();
    setShown(problems);
    if (Object.keys(problems).length === 0) onSave(draft);
  };

  const measurable = dashboardFieldNames.filter(
    (name) => metric === 'distinct' || (metric !== 'count' && dashboardFields[name].numeric),
  );

  let previewBody: ReactNode;
  if (!previewWidget) previewBody = <p className="muted">Fix the query to see its result.</p>;
  else if (preview.state.status === 'loading') previewBody = <p role="status">Loading the preview…</p>;
  else if (preview.state.status === 'error')
    previewBody = (
      <p className="alert alert--error" role="alert">
        {errorMessage(preview.state.error)}
      </p>
    );
  else if (previewWidget.type !== 'stat' && isEmptyResult(preview.state.result))
    previewBody = <p className="muted">No events match in this time range.</p>;
  else
    previewBody = (
      <WidgetBoundary resetKey={`${previewWidget.type}:${preview.state.query}`}>
        <WidgetView widget={previewWidget} result={preview.state.result} height={220} />
      </WidgetBoundary>
    );

  return (
    <form
      className="stack sg-widget-form"
      onSubmit={submit}
      noValidate
      aria-label={widget ? 'Change widget' : 'New widget'}
    >
      <Field
        label="Title"
        name="title"
        value={title}
        onChange={(e) => setTitle(e.target.value)}
        error={shown.title}
        maxLength={dashboardLimits.title}
      />
      <fieldset className="plain-fieldset stack">
        <legend>Query</legend>
        <SelectField
          label="Metric"
          name="metric"
          value={metric}
          onChange={(e) => setMetric(e.target.value as WidgetMetric)}
          options={widgetMetrics.map((value) => ({ value, label: widgetMetricLabels[value] }))}
        />
        {metric !== 'count' && (
          <SelectField
            label={
              metric === 'distinct'
                ? 'Field to count distinct values of'
                : `Field to ${metric === 'sum' ? 'sum' : 'average'}`
            }
            name="field"
            value={field}
            onChange={(e) => setField(e.target.value as DashboardField)}
            error={shown.field}
            options={[
              { value: '', label: 'Choose a field' },
              ...measurable.map((value) => ({ value, label: dashboardFieldLabels[value] })),
            ]}
          />
        )}
        <SelectField
          label="Group by"
          name="groupBy"
          value={groupKind}
          onChange={(e) => setGroupKind(e.target.value as GroupKind)}
          options={[
            { value: 'time', label: 'Time' },
            { value: 'field', label: 'A field’s values' },
            { value: 'none', label: 'Nothing (one number)' },
          ]}
        />
        {groupKind === 'time' && (
          <SelectField
            label="Interval"
            name="interval"
            value={interval}
            onChange={(e) => setInterval(e.target.value as TimeInterval)}
            options={timeIntervals.map((value) => ({ value, label: intervalLabels[value] }))}
          />
        )}
        {groupKind === 'field' && (
          <div className="row">
            <SelectField
              label="Field"
              name="groupField"
              value={groupField}
              onChange={(e) => setGroupField(e.target.value as DashboardField)}
              options={dashboardFieldNames.map((value) => ({ value, label: dashboardFieldLabels[value] }))}
            />
            <Field
              label="Top values"
              name="limit"
              type="number"
              min={1}
              max={dashboardLimits.fieldLimitMax}
              value={limit}
              onChange={(e) => setLimit(e.target.value)}
              error={shown.limit}
            />
          </div>
        )}
        <Field
          label="Filter"
          name="filter"
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
          error={shown.filter ?? (filterIssue && filter ? filterIssue : undefined)}
          hint={
            model.variables.length > 0
              ? `The event log's query language; ${model.variables.map((v) => `$${v.name}`).join(', ')} stand for the variables' choices.`
              : 'The event log’s query language, as action:blocked country:FR.'
          }
          spellCheck={false}
          autoComplete="off"
        />
      </fieldset>
      <SelectField
        label="Chart type"
        name="type"
        value={draft.type}
        onChange={(e) => setType(e.target.value as WidgetType)}
        options={types.map((value) => ({ value, label: widgetTypeLabels[value] }))}
      />
      <section className="sg-widget-form__preview" aria-labelledby={ids.preview} aria-live="polite">
        <h3 id={ids.preview}>Preview</h3>
        {previewBody}
      </section>
      <div className="row">
        <button type="submit" className="button">
          {widget ? 'Apply' : 'Add widget'}
        </button>
        <button type="button" className="button secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
