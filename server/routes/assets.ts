import { bodyLimit } from 'hono/body-limit';
import { Asset, AssetDetail, AssetList, AssetParams, Inventory, InventoryParams } from '../../contract/assets.ts';
import { Ok, SpaceParams } from '../../contract/common.ts';
import { vulnLimits } from '../../contract/constants/vulns.ts';
import { inSpace } from '../caller.ts';
import { ApiError } from '../errors.ts';
import { body, createRouter, json, route } from '../router.ts';
import {
  createAsset,
  deleteAsset,
  getAsset,
  getInventory,
  listAssets,
  updateAsset,
} from '../services/vulns/assets/assets.ts';
import { CreateAssetInput, UpdateAssetInput } from '../services/vulns/assets/read-inventory.ts';

/** An SBOM and the asset's other fields. */
export const assetBodyBytes = vulnLimits.sbomBytes + 64 * 1024;

/** The paths whose bodies may carry an SBOM: app.ts applies `assetBodyLimit` to them instead of its 1 MB limit. */
export const assetBodyPath = /^\/api\/spaces\/[^/]+\/assets(\/[^/]+)?$/;

/** The body limit of `assetBodyPath`: an SBOM of up to `vulnLimits.sbomBytes`. */
export const assetBodyLimit = bodyLimit({
  maxSize: assetBodyBytes,
  onError: () => {
    throw new ApiError(
      413,
      'payload_too_large',
      `An SBOM is limited to ${vulnLimits.sbomBytes / 1024 / 1024} MB; split it or leave out what is not software.`,
    );
  },
});
/** Assets of a space and their inventories (docs/product.md §7): everyone reads, admins and owners change. */
export const assetRoutes = createRouter()
  .openapi(
    route('viewer', {
      method: 'get',
      path: '/{spaceId}/assets',
      summary: 'Assets by name, each with its component count and its findings (open by severity, all by status)',
      request: { params: SpaceParams },
      responses: { 200: json(AssetList, 'Assets') },
    }),
    async (c) => c.json(await listAssets(inSpace(c)), 200),
  )
  .openapi(
    route('admin', {
      method: 'post',
      path: '/{spaceId}/assets',
      summary:
        'Create an asset within the plan’s limit, with typed components (purl, or ecosystem, name and version) or a CycloneDX 1.4–1.6 JSON SBOM (up to 32 MB); an SBOM’s problem is named by its JSON path',
      request: { params: SpaceParams, body: body(CreateAssetInput) },
      responses: { 201: json(Asset, 'The asset') },
    }),
    async (c) => c.json(await createAsset(inSpace(c), c.req.valid('json')), 201),
  )
  .openapi(
    route('viewer', {
      method: 'get',
      path: '/{spaceId}/assets/{id}',
      summary:
        'One asset: its current inventory with each component’s findings that are not fixed, and its inventory history',
      request: { params: AssetParams },
      responses: { 200: json(AssetDetail, 'The asset') },
    }),
    async (c) => c.json(await getAsset(inSpace(c), c.req.valid('param').id), 200),
  )
  .openapi(
    route('admin', {
      method: 'patch',
      path: '/{spaceId}/assets/{id}',
      summary:
        'Change any of an asset’s fields; `components` or `sbom` replaces the inventory, the previous one kept in the history',
      request: { params: AssetParams, body: body(UpdateAssetInput) },
      responses: { 200: json(Asset, 'The asset') },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      return c.json(await updateAsset(inSpace(c), id, c.req.valid('json')), 200);
    },
  )
  .openapi(
    route('admin', {
      method: 'delete',
      path: '/{spaceId}/assets/{id}',
      summary: 'Delete an asset with its inventories and findings',
      request: { params: AssetParams },
      responses: { 200: json(Ok, 'Deleted') },
    }),
    async (c) => {
      await deleteAsset(inSpace(c), c.req.valid('param').id);
      return c.json({ ok: true as const }, 200);
    },
  )
  .openapi(
    route('viewer', {
      method: 'get',
      path: '/{spaceId}/assets/{id}/inventories/{version}',
      summary: 'One inventory of an asset, the current one or a previous one, with its components',
      request: { params: InventoryParams },
      responses: { 200: json(Inventory, 'The inventory') },
    }),
    async (c) => {
      const { id, version } = c.req.valid('param');
      return c.json(await getInventory(inSpace(c), id, version), 200);
    },
  );
