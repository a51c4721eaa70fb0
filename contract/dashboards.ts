/**
 * Dashboards: the model that is stored, exported and imported (schemaVersion 1), and the API's bodies and answers;
 * the pure rules both sides share (relative times, variables, which widget types fit which grouping) are in
 * dashboard-rules.ts and dashboard-filter.ts.
 */
import { z } from 'zod';
import { Id, SpaceParams, Timestamp } from './common.ts';
import {
  type DashboardField,
  dashboardFieldNames,
  dashboardLimits,
  dashboardSchemaVersion,
  groupKinds,
  refreshIntervals,
  relativeTimePattern,
  timeIntervals,
  variableFields,
  variableNamePattern,
  widgetMetrics,
  widgetTypes,
} from './constants/dashboards.ts';
import { filterProblem } from './dashboard-filter.ts';
import { metricProblem, resolveTimePoint, typeProblem } from './dashboard-rules.ts';
import { Person } from './members.ts';

// ---------------------------------------------------------------------------------------------------------------
// Time

/** A point of a dashboard's time range: relative to now, or an RFC 3339 time. */
export const TimePoint = z
  .string()
  .trim()
  .max(64, 'Use at most 64 characters.')
  .refine((value) => relativeTimePattern.test(value) || Timestamp.safeParse(value).success, {
    message: 'Use now, now-<n>m/h/d/w (as now-24h) or an RFC 3339 time (as 2026-11-24T08:00:00Z).',
  });

export const TimeRange = z
  .object({ from: TimePoint, to: TimePoint })
  .strict()
  .superRefine((range, ctx) => {
    const now = Date.UTC(2026, 0, 1);
    if (resolveTimePoint(range.from, now) >= resolveTimePoint(range.to, now))
      ctx.addIssue({ code: 'custom', path: ['from'], message: 'The start of the range must be before its end.' });
  });
export type TimeRange = z.infer<typeof TimeRange>;

// ---------------------------------------------------------------------------------------------------------------
// Variables

export const Variable = z
  .object({
    name: z
      .string()
      .regex(variableNamePattern, 'Start with a letter or _, then letters, digits or _ (at most 32), as $country.'),
    field: z.enum(variableFields as [DashboardField, ...DashboardField[]], {
      message: `Choose one of ${variableFields.join(', ')}.`,
    }),
    multi: z.boolean().optional(),
    default: z
      .array(z.string().min(1).max(200))
      .max(dashboardLimits.variableValues, `Choose at most ${dashboardLimits.variableValues} values.`)
      .optional(),
  })
  .strict()
  .superRefine((variable, ctx) => {
    if (!variable.multi && (variable.default?.length ?? 0) > 1)
      ctx.addIssue({ code: 'custom', path: ['default'], message: 'A single-value variable has at most one default.' });
  });
export type Variable = z.infer<typeof Variable>;

// ---------------------------------------------------------------------------------------------------------------
// Widgets

const fieldEnum = z.enum(dashboardFieldNames as [DashboardField, ...DashboardField[]], {
  message: `Choose an event field: ${dashboardFieldNames.join(', ')}.`,
});

export const GroupBy = z.discriminatedUnion(
  'kind',
  [
    z.object({ kind: z.literal('time'), interval: z.enum(timeIntervals).optional() }).strict(),
    z
      .object({
        kind: z.literal('field'),
        field: fieldEnum,
        limit: z
          .number()
          .int('Use a whole number.')
          .min(1, 'Show at least one value.')
          .max(dashboardLimits.fieldLimitMax, `Show at most ${dashboardLimits.fieldLimitMax} values.`)
          .optional(),
      })
      .strict(),
    z.object({ kind: z.literal('none') }).strict(),
  ],
  { message: `Group by one of ${groupKinds.join(', ')}.` },
);
export type GroupBy = z.infer<typeof GroupBy>;

export const WidgetQuery = z
  .object({
    metric: z.enum(widgetMetrics, { message: `Choose one of ${widgetMetrics.join(', ')}.` }),
    field: fieldEnum.optional(),
    groupBy: GroupBy,
    filter: z.string().max(2000, 'Use at most 2000 characters.').default(''),
  })
  .strict()
  .superRefine((query, ctx) => {
    const problem = metricProblem(query.metric, query.field);
    if (problem) ctx.addIssue({ code: 'custom', path: ['field'], message: problem });
  });
export type WidgetQuery = z.infer<typeof WidgetQuery>;

const whole = (what: string) => z.number({ message: `Give the ${what} as a number.` }).int('Use a whole number.');

export const GridPos = z
  .object({
    x: whole('column').min(0, 'Start at column 0 or later.'),
    y: whole('row').min(0, 'Start at row 0 or later.').max(dashboardLimits.maxRow),
    w: whole('width').min(1, 'Make it at least one column wide.'),
    h: whole('height').min(1, 'Make it at least one row tall.').max(dashboardLimits.maxHeight),
  })
  .strict()
  .superRefine((pos, ctx) => {
    if (pos.x + pos.w > dashboardLimits.columns)
      ctx.addIssue({
        code: 'custom',
        path: ['w'],
        message: `The grid has ${dashboardLimits.columns} columns: x + w must be at most ${dashboardLimits.columns} (it is ${pos.x + pos.w}).`,
      });
  });
export type GridPos = z.infer<typeof GridPos>;

export const Widget = z
  .object({
    id: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,40}$/, 'Use 1 to 40 letters, digits, - or _.')
      .describe('Unique in the dashboard'),
    title: z
      .string()
      .trim()
      .min(1, 'Give the widget a title.')
      .max(dashboardLimits.title, `Use at most ${dashboardLimits.title} characters.`),
    type: z.enum(widgetTypes, { message: `Choose one of ${widgetTypes.join(', ')}.` }),
    gridPos: GridPos,
    query: WidgetQuery,
  })
  .strict()
  .superRefine((widget, ctx) => {
    const problem = typeProblem(widget.type, widget.query.groupBy);
    if (problem) ctx.addIssue({ code: 'custom', path: ['type'], message: problem });
  });
export type Widget = z.infer<typeof Widget>;

// ---------------------------------------------------------------------------------------------------------------
// The dashboard

const dashboardShape = {
  schemaVersion: z.literal(dashboardSchemaVersion, {
    message: `This file is not a dashboard of schema version ${dashboardSchemaVersion}.`,
  }),
  title: z
    .string()
    .trim()
    .min(1, 'Give the dashboard a title.')
    .max(dashboardLimits.title, `Use at most ${dashboardLimits.title} characters.`),
  description: z
    .string()
    .max(dashboardLimits.description, `Use at most ${dashboardLimits.description} characters.`)
    .optional(),
  timeRange: TimeRange,
  refreshSeconds: z.number().refine((value) => (refreshIntervals as readonly number[]).includes(value), {
    message: `Refresh every ${refreshIntervals.join(', ')} seconds (0 is off).`,
  }),
  variables: z
    .array(Variable)
    .max(dashboardLimits.variables, `A dashboard has at most ${dashboardLimits.variables} variables.`),
  widgets: z.array(Widget).max(dashboardLimits.widgets, `A dashboard has at most ${dashboardLimits.widgets} widgets.`),
};

type ModelLike = { variables: readonly Variable[]; widgets: readonly Widget[] };

/** The checks across fields: unique names and ids, and filters that read with the variables. */
function checkModel(model: ModelLike, ctx: z.RefinementCtx): void {
  const names = new Set<string>();
  model.variables.forEach((variable, index) => {
    if (names.has(variable.name))
      ctx.addIssue({
        code: 'custom',
        path: ['variables', index, 'name'],
        message: `Another variable is named ${variable.name}.`,
      });
    names.add(variable.name);
  });
  const ids = new Set<string>();
  model.widgets.forEach((widget, index) => {
    if (ids.has(widget.id))
      ctx.addIssue({ code: 'custom', path: ['widgets', index, 'id'], message: `Another widget has id ${widget.id}.` });
    ids.add(widget.id);
    const problem = filterProblem(widget.query.filter, model.variables);
    if (problem) ctx.addIssue({ code: 'custom', path: ['widgets', index, 'query', 'filter'], message: problem });
  });
}

/** The dashboard as stored, exported and imported. */
export const DashboardModel = z.object(dashboardShape).strict().superRefine(checkModel).meta({ id: 'DashboardModel' });
export type DashboardModel = z.infer<typeof DashboardModel>;

/** `PUT .../dashboards/{id}`: the whole model and the version it was based on. */
export const UpdateDashboardBody = z
  .object({
    ...dashboardShape,
    version: z.number().int().min(1, 'Give the version this change was based on.'),
  })
  .strict()
  .superRefine(checkModel)
  .meta({ id: 'UpdateDashboardBody' });
export type UpdateDashboardBody = z.infer<typeof UpdateDashboardBody>;

/** A stored dashboard: its model with its id, version, whether it is the space's default, and who changed it. */
export const Dashboard = z
  .object({
    id: Id,
    version: z.number().int(),
    isDefault: z.boolean(),
    createdAt: Timestamp,
    createdBy: Person,
    updatedAt: Timestamp,
    updatedBy: Person,
    schemaVersion: z.literal(dashboardSchemaVersion),
    title: z.string(),
    description: z.string().optional(),
    timeRange: z.object({ from: z.string(), to: z.string() }),
    refreshSeconds: z.number().int(),
    variables: z.array(Variable),
    widgets: z.array(Widget),
  })
  .meta({ id: 'Dashboard' });
export type Dashboard = z.infer<typeof Dashboard>;

export const DashboardSummary = z
  .object({
    id: Id,
    title: z.string(),
    description: z.string().optional(),
    widgets: z.number().int(),
    isDefault: z.boolean(),
    version: z.number().int(),
    updatedAt: Timestamp,
    updatedBy: Person,
  })
  .meta({ id: 'DashboardSummary' });
export type DashboardSummary = z.infer<typeof DashboardSummary>;

export const DashboardList = z
  .object({
    items: z.array(DashboardSummary),
    /** How many the space's plan allows; null when unlimited. */
    limit: z.number().int().nullable(),
  })
  .meta({ id: 'DashboardList' });
export type DashboardList = z.infer<typeof DashboardList>;

export const DashboardParams = SpaceParams.extend({ id: Id });

/** `POST .../dashboards/{id}/duplicate`: the copy's title, "Copy of …" when left out. */
export const DuplicateDashboardBody = z
  .object({ title: dashboardShape.title.optional() })
  .strict()
  .meta({ id: 'DuplicateDashboardBody' });

// ---------------------------------------------------------------------------------------------------------------
// One widget's query

/** `POST .../query`: one widget's query over a time range (variables already written into the filter). */
export const WidgetQueryBody = z
  .object({ query: WidgetQuery, from: TimePoint, to: TimePoint })
  .strict()
  .meta({ id: 'WidgetQueryBody' });
export type WidgetQueryBody = z.input<typeof WidgetQueryBody>;

/** x: a bucket's start (epoch ms) for time groups, the field's value for field groups, null for `none`. */
export const SeriesPoint = z.tuple([z.union([z.number(), z.string(), z.null()]), z.number().nullable()]);
export type SeriesPoint = z.infer<typeof SeriesPoint>;

export const WidgetResult = z
  .object({
    from: Timestamp,
    to: Timestamp,
    /** Width of the time buckets in seconds; null unless grouped by time. */
    intervalSeconds: z.number().int().nullable(),
    series: z.array(z.object({ name: z.string(), data: z.array(SeriesPoint) })),
    /** Whether the events store's rollups answered (rather than the events themselves). */
    fromRollups: z.boolean(),
  })
  .meta({ id: 'WidgetResult' });
export type WidgetResult = z.infer<typeof WidgetResult>;
