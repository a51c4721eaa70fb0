/** The firewalls of the URL's space: the list, the firewall of the URL, its versions, the CRS catalog, and one draft of its settings. */
import { atom, computed } from 'nanostores';
import type { FirewallSettings } from '../../contract/firewall-settings.ts';
import type { CreateFirewallBody, Firewall, UpdateFirewallBody } from '../../contract/firewalls.ts';
import { call, client } from '../lib/api.ts';
import { apiStore, invalidateApi } from './fetcher.ts';
import { $routeId, $spaceId } from './route.ts';

// Connector state and 24 h figures move on their own: asked again this often while visible.
const FIGURES_REFRESH = { revalidateInterval: 30_000 };

/** The space's firewalls with their connector state and events and blocked requests of the last 24 hours. */
export const $firewalls = apiStore(
  'firewalls',
  [$spaceId],
  (spaceId) => call(client.spaces[':spaceId'].firewalls.$get({ param: { spaceId } })),
  FIGURES_REFRESH,
);

/** The firewall of the URL (`{id}`): its settings, newest version and connector state. */
export const $firewall = apiStore('firewall', [$spaceId, $routeId], (spaceId, id) =>
  call(client.spaces[':spaceId'].firewalls[':id'].$get({ param: { spaceId, id } })),
);

/** The versions of the URL's firewall, newest first. */
export const $firewallVersions = apiStore('firewall-versions', [$spaceId, $routeId], (spaceId, id) =>
  call(client.spaces[':spaceId'].firewalls[':id'].versions.$get({ param: { spaceId, id } })),
);

/** The installed CRS: its rule groups with their names and the application packages. */
export const $firewallCatalog = apiStore('firewall-catalog', [$spaceId], (spaceId) =>
  call(client.spaces[':spaceId']['firewall-catalog'].$get({ param: { spaceId } })),
);

/** Loads one version's settings and files (for Preview and History). */
export function loadFirewallVersion(spaceId: string, id: string, version: number) {
  return call(
    client.spaces[':spaceId'].firewalls[':id'].versions[':version'].$get({
      param: { spaceId, id, version: String(version) },
    }),
  );
}

/** The settings keys a draft holds and a save may send. */
export const settingsKeys = [
  'name',
  'hostnames',
  'upstream',
  'mode',
  'trustedProxies',
  'managedRules',
  'exclusions',
  'customRules',
  'ipAllow',
  'ipDeny',
  'countryBlock',
  'rateLimits',
] as const satisfies readonly (keyof FirewallSettings)[];
/** One top-level settings key. */
export type SettingsKey = (typeof settingsKeys)[number];

/** The unsaved settings of the page's firewall: what the user edits, and the saved version it started from. */
export interface FirewallDraft {
  readonly firewallId: string;
  readonly baseVersion: number;
  readonly base: FirewallSettings;
  readonly settings: FirewallSettings;
}

/** The page's one draft (null until the firewall has loaded); every tab edits it, so nothing is lost between tabs. */
export const $draft = atom<FirewallDraft | null>(null);

/** The settings part of a firewall answer. */
export function settingsOf(firewall: FirewallSettings): FirewallSettings {
  return {
    name: firewall.name,
    hostnames: firewall.hostnames,
    upstream: firewall.upstream,
    mode: firewall.mode,
    trustedProxies: firewall.trustedProxies,
    managedRules: firewall.managedRules,
    exclusions: firewall.exclusions,
    customRules: firewall.customRules,
    ipAllow: firewall.ipAllow,
    ipDeny: firewall.ipDeny,
    countryBlock: firewall.countryBlock,
    rateLimits: firewall.rateLimits,
  };
}

/** Saved settings with the firewall's id and version: a firewall answer, or a draft's base. */
export type SavedSettings = FirewallSettings & Pick<Firewall, 'id' | 'version'>;

/** Starts the draft from a saved firewall (page load, after a save, a rollback or a discard). */
export function startDraft(firewall: SavedSettings): void {
  const base = settingsOf(firewall);
  $draft.set({ firewallId: firewall.id, baseVersion: firewall.version, base, settings: base });
}

/** Replaces one top-level key of the draft. */
export function editDraft<K extends SettingsKey>(key: K, value: FirewallSettings[K]): void {
  const draft = $draft.get();
  if (draft) $draft.set({ ...draft, settings: { ...draft.settings, [key]: value } });
}

/** The keys whose draft value differs from the saved one. */
export function changedKeys(draft: FirewallDraft | null): SettingsKey[] {
  if (!draft) return [];
  return settingsKeys.filter((key) => JSON.stringify(draft.settings[key]) !== JSON.stringify(draft.base[key]));
}

/** The draft's changed keys, for the Save bar and the unsaved-changes warning. */
export const $changedKeys = computed($draft, changedKeys);

/** Keeps the user's changes on top of a newer saved firewall (after a 409): the changed keys stay, the rest follow the save. */
export function rebaseDraft(current: SavedSettings): void {
  const draft = $draft.get();
  const base = settingsOf(current);
  if (!draft) {
    startDraft(current);
    return;
  }
  const settings: FirewallSettings = { ...base };
  for (const key of changedKeys(draft)) Object.assign(settings, { [key]: draft.settings[key] });
  $draft.set({ firewallId: current.id, baseVersion: current.version, base, settings });
}

/** The version whose files the Preview tab shows (the newest), as text. */
export const $previewVersion = atom<string | null>(null);
/** The two versions the History tab compares, as text. */
export const $compareFrom = atom<string | null>(null);
/** See `$compareFrom`. */
export const $compareTo = atom<string | null>(null);

/** One version's settings and files, keyed by a version store. */
function versionStore(version: typeof $previewVersion) {
  return apiStore('firewall-version', [$spaceId, $routeId, version], (spaceId, id, number) =>
    loadFirewallVersion(spaceId, id, Number(number)),
  );
}

/** The newest version's settings and generated files, for Preview. */
export const $previewFiles = versionStore($previewVersion);
/** The older side of History's comparison. */
export const $versionFrom = versionStore($compareFrom);
/** The newer side of History's comparison. */
export const $versionTo = versionStore($compareTo);

// Writes: each sends one change and refreshes what it changes, wherever it is shown.

const firewalls = client.spaces[':spaceId'].firewalls;

/** Creates a firewall; its connector token comes with the answer, once. The list refreshes. */
export async function createFirewall(spaceId: string, body: CreateFirewallBody) {
  const created = await call(firewalls.$post({ param: { spaceId }, json: body }));
  invalidateApi($firewalls);
  return created;
}

/** Deletes a firewall, confirmed by its name; the list refreshes. */
export async function deleteFirewall(spaceId: string, id: string, confirmName: string): Promise<void> {
  await call(firewalls[':id'].$delete({ param: { spaceId, id }, json: { confirmName } }));
  invalidateApi($firewalls);
}

/** Saves changed settings over `body.version` (a newer saved version answers 409); the firewall, its versions and the list refresh. */
export async function saveFirewallSettings(spaceId: string, id: string, body: UpdateFirewallBody) {
  const firewall = await call(firewalls[':id'].$patch({ param: { spaceId, id }, json: body }));
  invalidateApi($firewall, $firewalls, $firewallVersions);
  return firewall;
}

/** Reads a firewall as saved now (the other side of a save conflict). */
export function loadFirewall(spaceId: string, id: string) {
  return call(firewalls[':id'].$get({ param: { spaceId, id } }));
}

/** A new version with the settings of an older one; the firewall, its versions and the list refresh. */
export async function rollbackFirewall(spaceId: string, id: string, version: number) {
  const answer = await call(firewalls[':id'].rollback.$post({ param: { spaceId, id }, json: { version } }));
  invalidateApi($firewall, $firewalls, $firewallVersions);
  return answer;
}

/** A new connector token for the firewall, shown once; the firewall (its token prefix) refreshes. */
export async function rotateFirewallToken(spaceId: string, id: string) {
  const rotated = await call(firewalls[':id'].token.$post({ param: { spaceId, id } }));
  invalidateApi($firewall);
  return rotated;
}
