import { Ok, SpaceParams } from '../../contract/common.ts';
import {
  CreatedFirewall,
  CreateFirewallBody,
  DeleteFirewallBody,
  Firewall,
  FirewallConflict,
  FirewallList,
  FirewallParams,
  FirewallVersion,
  FirewallVersionList,
  FirewallVersionParams,
  RollbackBody,
  UpdateFirewallBody,
} from '../../contract/firewalls.ts';
import { inSpace } from '../caller.ts';
import { body, createRouter, json, route } from '../router.ts';
import {
  createFirewall,
  deleteFirewall,
  getFirewall,
  listFirewalls,
  rotateFirewallToken,
  updateFirewall,
} from '../services/firewalls/firewalls.ts';
import { firewallVersion, listVersions, rollbackFirewall } from '../services/firewalls/versions.ts';

/** Firewalls of a space (docs/product.md §7): viewers and analysts read, admins and owners change. */
export const firewallRoutes = createRouter()
  .openapi(
    route('viewer', {
      method: 'get',
      path: '/{spaceId}/firewalls',
      summary: 'Firewalls with their connector state and their events and blocked requests of the last 24 h (hourly)',
      request: { params: SpaceParams },
      responses: { 200: json(FirewallList, 'Firewalls by name') },
    }),
    async (c) => c.json(await listFirewalls(inSpace(c)), 200),
  )
  .openapi(
    route('admin', {
      method: 'post',
      path: '/{spaceId}/firewalls',
      summary:
        'Create a firewall (version 1) within the plan’s limit; the answer carries its connector token, shown once',
      request: { params: SpaceParams, body: body(CreateFirewallBody) },
      responses: { 201: json(CreatedFirewall, 'The firewall and its connector token') },
    }),
    async (c) => c.json(await createFirewall(inSpace(c), c.req.valid('json')), 201),
  )
  .openapi(
    route('viewer', {
      method: 'get',
      path: '/{spaceId}/firewalls/{id}',
      summary: 'One firewall: its settings, newest version and connector state',
      request: { params: FirewallParams },
      responses: { 200: json(Firewall, 'The firewall') },
    }),
    async (c) => c.json(await getFirewall(inSpace(c), c.req.valid('param').id), 200),
  )
  .openapi(
    route('admin', {
      method: 'patch',
      path: '/{spaceId}/firewalls/{id}',
      summary:
        'Replace any of the top-level settings whole; every save is a new version. `version` is the one the edit started from: a newer save in between answers 409',
      request: { params: FirewallParams, body: body(UpdateFirewallBody) },
      responses: {
        200: json(Firewall, 'The firewall at its new version'),
        409: json(
          FirewallConflict,
          'Someone saved a newer version: both versions named, the current firewall included',
        ),
      },
    }),
    async (c) => c.json(await updateFirewall(inSpace(c), c.req.valid('param').id, c.req.valid('json')), 200),
  )
  .openapi(
    route('admin', {
      method: 'delete',
      path: '/{spaceId}/firewalls/{id}',
      summary: 'Delete a firewall and its versions after typing its name; its log source and events stay',
      request: { params: FirewallParams, body: body(DeleteFirewallBody) },
      responses: { 200: json(Ok, 'Deleted') },
    }),
    async (c) => {
      await deleteFirewall(inSpace(c), c.req.valid('param').id, c.req.valid('json').confirmName);
      return c.json({ ok: true as const }, 200);
    },
  )
  .openapi(
    route('viewer', {
      method: 'get',
      path: '/{spaceId}/firewalls/{id}/versions',
      summary: 'The firewall’s versions, newest first: number, time, author, comment and hash',
      request: { params: FirewallParams },
      responses: { 200: json(FirewallVersionList, 'Versions') },
    }),
    async (c) => c.json(await listVersions(inSpace(c), c.req.valid('param').id), 200),
  )
  .openapi(
    route('viewer', {
      method: 'get',
      path: '/{spaceId}/firewalls/{id}/versions/{version}',
      summary: 'One version’s settings and compiled files, to compare any two',
      request: { params: FirewallVersionParams },
      responses: { 200: json(FirewallVersion, 'The version') },
    }),
    async (c) => c.json(await firewallVersion(inSpace(c), c.req.valid('param').id, c.req.valid('param').version), 200),
  )
  .openapi(
    route('admin', {
      method: 'post',
      path: '/{spaceId}/firewalls/{id}/rollback',
      summary: 'Roll back: a new version whose settings are those of the given version',
      request: { params: FirewallParams, body: body(RollbackBody) },
      responses: { 200: json(Firewall, 'The firewall at its new version') },
    }),
    async (c) => c.json(await rollbackFirewall(inSpace(c), c.req.valid('param').id, c.req.valid('json')), 200),
  )
  .openapi(
    route('admin', {
      method: 'post',
      path: '/{spaceId}/firewalls/{id}/token',
      summary: 'Rotate the connector token: the old one stops working at once; the new one is shown this once',
      request: { params: FirewallParams },
      responses: { 200: json(CreatedFirewall, 'The firewall and its new token') },
    }),
    async (c) => c.json(await rotateFirewallToken(inSpace(c), c.req.valid('param').id), 200),
  );
