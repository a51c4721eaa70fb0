/**
 * The dashboards a new one may start from. `overview` is also the default dashboard every space is created with.
 * Each is a complete DashboardModel, so creating from a template is a plain `POST .../dashboards` of its model.
 */
import type { DashboardModel } from '../dashboards.ts';

export const dashboardTemplateIds = ['empty', 'overview', 'attacks'] as const;
export type DashboardTemplateId = (typeof dashboardTemplateIds)[number];

const overview: DashboardModel = {
  schemaVersion: 1,
  title: 'Overview',
  description: 'Requests, blocks and where they come from over the last 24 hours.',
  timeRange: { from: 'now-24h', to: 'now' },
  refreshSeconds: 60,
  variables: [],
  widgets: [
    {
      id: 'requests',
      title: 'Requests',
      type: 'stat',
      gridPos: { x: 0, y: 0, w: 6, h: 4 },
      query: { metric: 'count', groupBy: { kind: 'none' }, filter: '' },
    },
    {
      id: 'blocked',
      title: 'Blocked requests',
      type: 'stat',
      gridPos: { x: 6, y: 0, w: 6, h: 4 },
      query: { metric: 'count', groupBy: { kind: 'none' }, filter: 'action:blocked' },
    },
    {
      id: 'clients',
      title: 'Distinct client IPs',
      type: 'stat',
      gridPos: { x: 12, y: 0, w: 6, h: 4 },
      query: { metric: 'distinct', field: 'ip', groupBy: { kind: 'none' }, filter: '' },
    },
    {
      id: 'actions',
      title: 'Actions',
      type: 'pie',
      gridPos: { x: 18, y: 0, w: 6, h: 8 },
      query: { metric: 'count', groupBy: { kind: 'field', field: 'action' }, filter: '' },
    },
    {
      id: 'requests-over-time',
      title: 'Requests over time',
      type: 'areaspline',
      gridPos: { x: 0, y: 4, w: 18, h: 8 },
      query: { metric: 'count', groupBy: { kind: 'time', interval: 'auto' }, filter: '' },
    },
    {
      id: 'countries',
      title: 'Blocked requests by country',
      type: 'map',
      gridPos: { x: 0, y: 12, w: 12, h: 10 },
      query: { metric: 'count', groupBy: { kind: 'field', field: 'country', limit: 100 }, filter: 'action:blocked' },
    },
    {
      id: 'top-rules',
      title: 'Top rules',
      type: 'bar',
      gridPos: { x: 12, y: 12, w: 12, h: 10 },
      query: { metric: 'count', groupBy: { kind: 'field', field: 'ruleIds', limit: 10 }, filter: 'action:blocked' },
    },
    {
      id: 'top-ips',
      title: 'Top client IPs',
      type: 'table',
      gridPos: { x: 0, y: 22, w: 24, h: 8 },
      query: { metric: 'count', groupBy: { kind: 'field', field: 'ip', limit: 10 }, filter: '' },
    },
  ],
};

const attacks: DashboardModel = {
  schemaVersion: 1,
  title: 'Attacks by country',
  description: 'Blocked attacks over the last 7 days; choose countries at the top to narrow every widget.',
  timeRange: { from: 'now-7d', to: 'now' },
  refreshSeconds: 0,
  variables: [{ name: 'country', field: 'country', multi: true }],
  widgets: [
    {
      id: 'attacks',
      title: 'Blocked attacks',
      type: 'stock',
      gridPos: { x: 0, y: 0, w: 24, h: 9 },
      query: { metric: 'count', groupBy: { kind: 'time', interval: '1h' }, filter: 'action:blocked $country' },
    },
    {
      id: 'tags',
      title: 'Attack types',
      type: 'pie',
      gridPos: { x: 0, y: 9, w: 12, h: 9 },
      query: {
        metric: 'count',
        groupBy: { kind: 'field', field: 'tags', limit: 8 },
        filter: 'action:blocked tag:attack-* $country',
      },
    },
    {
      id: 'hosts',
      title: 'Attacked hosts',
      type: 'column',
      gridPos: { x: 12, y: 9, w: 12, h: 9 },
      query: {
        metric: 'count',
        groupBy: { kind: 'field', field: 'host', limit: 10 },
        filter: 'action:blocked $country',
      },
    },
    {
      id: 'attackers',
      title: 'Attacking IPs',
      type: 'stat',
      gridPos: { x: 0, y: 18, w: 8, h: 4 },
      query: { metric: 'distinct', field: 'ip', groupBy: { kind: 'none' }, filter: 'action:blocked $country' },
    },
  ],
};

const empty: DashboardModel = {
  schemaVersion: 1,
  title: 'New dashboard',
  timeRange: { from: 'now-24h', to: 'now' },
  refreshSeconds: 0,
  variables: [],
  widgets: [],
};

/** Each template: what the create form says of it, and its model. */
export const dashboardTemplates: Readonly<Record<DashboardTemplateId, { label: string; model: DashboardModel }>> = {
  empty: { label: 'Empty dashboard', model: empty },
  overview: { label: 'Overview: requests, blocks, countries, rules and clients', model: overview },
  attacks: { label: 'Attacks by country, with a country variable', model: attacks },
};

/** The dashboard every new space is created with (and that a space without one gets). */
export const defaultDashboardTemplate: DashboardTemplateId = 'overview';
