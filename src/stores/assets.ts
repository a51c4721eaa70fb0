/** Assets of the URL's space: the list, the open asset's page, an inventory of its history, and changes. */
import { atom } from 'nanostores';
import type { AssetDetail, AssetList, CreateAssetBody, Inventory, UpdateAssetBody } from '../../contract/assets.ts';
import { call, client } from '../lib/api.ts';
import { apiStore, invalidateApi } from './fetcher.ts';
import { $spaceId } from './route.ts';

const space = client.spaces[':spaceId'];

/** The space's assets with their component and finding counts. */
export const $assets = apiStore<AssetList>('assets', [$spaceId], (spaceId) =>
  call(space.assets.$get({ param: { spaceId } })),
);

/** The asset whose page is open (`?asset=` of the assessment screen), set by the assets tab. */
export const $openAssetId = atom<string | null>(null);

/** The open asset with its current inventory and the history of its inventories. */
export const $asset = apiStore<AssetDetail>('asset', [$spaceId, $openAssetId], (spaceId, id) =>
  call(space.assets[':id'].$get({ param: { spaceId, id } })),
);

/** One inventory of an asset (a previous one, from the history). */
export function loadInventory(spaceId: string, id: string, version: number): Promise<Inventory> {
  return call(space.assets[':id'].inventories[':version'].$get({ param: { spaceId, id, version: String(version) } }));
}

/** Creates an asset; the list is asked again. */
export async function createAsset(spaceId: string, json: CreateAssetBody) {
  const asset = await call(space.assets.$post({ param: { spaceId }, json }));
  invalidateApi($assets);
  return asset;
}

/** Changes an asset (a new inventory replaces the current one); the list and its page are asked again. */
export async function updateAsset(spaceId: string, id: string, json: UpdateAssetBody) {
  const asset = await call(space.assets[':id'].$patch({ param: { spaceId, id }, json }));
  invalidateApi($assets, $asset);
  return asset;
}

/** Deletes an asset with its inventories and findings. */
export async function deleteAsset(spaceId: string, id: string): Promise<void> {
  await call(space.assets[':id'].$delete({ param: { spaceId, id } }));
  invalidateApi($assets);
}
