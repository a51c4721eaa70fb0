import { Ok, SpaceParams } from '../../contract/common.ts';
import {
  Dashboard,
  DashboardList,
  DashboardModel,
  DashboardParams,
  DuplicateDashboardBody,
  UpdateDashboardBody,
} from '../../contract/dashboards.ts';
import { inSpace } from '../caller.ts';
import { body, createRouter, json, route } from '../router.ts';
import {
  createDashboard,
  deleteDashboard,
  duplicateDashboard,
  getDashboard,
  listDashboards,
  setDefaultDashboard,
  updateDashboard,
} from '../services/dashboards/dashboards.ts';

/** Dashboards of a space (docs/product.md §2: viewers read them, analysts and up create, change and delete). */
export const dashboardRoutes = createRouter()
  .openapi(
    route('viewer', {
      method: 'get',
      path: '/{spaceId}/dashboards',
      summary: 'Dashboards of the space, the default first, then by title; with the plan’s limit',
      request: { params: SpaceParams },
      responses: { 200: json(DashboardList, 'Every dashboard of the space') },
    }),
    async (c) => c.json(await listDashboards(inSpace(c)), 200),
  )
  .openapi(
    route('analyst', {
      method: 'post',
      path: '/{spaceId}/dashboards',
      summary: 'Create a dashboard from a whole model (a template, an imported file), within the plan’s limit',
      request: { params: SpaceParams, body: body(DashboardModel) },
      responses: { 201: json(Dashboard, 'The dashboard, at version 1') },
    }),
    async (c) => c.json(await createDashboard(inSpace(c), c.req.valid('json')), 201),
  )
  .openapi(
    route('viewer', {
      method: 'get',
      path: '/{spaceId}/dashboards/{id}',
      summary: 'One dashboard: its model, version, and who changed it',
      request: { params: DashboardParams },
      responses: { 200: json(Dashboard, 'The dashboard') },
    }),
    async (c) => c.json(await getDashboard(inSpace(c), c.req.valid('param').id), 200),
  )
  .openapi(
    route('analyst', {
      method: 'put',
      path: '/{spaceId}/dashboards/{id}',
      summary: 'Save a dashboard’s whole model, based on `version`; a newer save in between answers 409',
      request: { params: DashboardParams, body: body(UpdateDashboardBody) },
      responses: { 200: json(Dashboard, 'The dashboard, its version one higher') },
    }),
    async (c) => c.json(await updateDashboard(inSpace(c), c.req.valid('param').id, c.req.valid('json')), 200),
  )
  .openapi(
    route('analyst', {
      method: 'delete',
      path: '/{spaceId}/dashboards/{id}',
      summary: 'Delete a dashboard (not the space’s default)',
      request: { params: DashboardParams },
      responses: { 200: json(Ok, 'Deleted') },
    }),
    async (c) => {
      await deleteDashboard(inSpace(c), c.req.valid('param').id);
      return c.json({ ok: true as const }, 200);
    },
  )
  .openapi(
    route('analyst', {
      method: 'post',
      path: '/{spaceId}/dashboards/{id}/duplicate',
      summary: 'Copy a dashboard ("Copy of …" unless a title is given), within the plan’s limit',
      request: { params: DashboardParams, body: body(DuplicateDashboardBody) },
      responses: { 201: json(Dashboard, 'The copy, at version 1, not the default') },
    }),
    async (c) => c.json(await duplicateDashboard(inSpace(c), c.req.valid('param').id, c.req.valid('json')), 201),
  )
  .openapi(
    route('analyst', {
      method: 'post',
      path: '/{spaceId}/dashboards/{id}/default',
      summary: 'Make a dashboard the space’s default (the previous default no longer is)',
      request: { params: DashboardParams },
      responses: { 200: json(Dashboard, 'The dashboard, now the default') },
    }),
    async (c) => c.json(await setDefaultDashboard(inSpace(c), c.req.valid('param').id), 200),
  );
