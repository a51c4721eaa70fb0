/** The runtime configuration as a store: defaults until `/config.json` has been read once. */
import { atom } from 'nanostores';
import { DEFAULT_CONFIG, loadRuntimeConfig, type RuntimeConfig } from '../lib/config.ts';

/** Current runtime configuration. */
export const $config = atom<RuntimeConfig>(DEFAULT_CONFIG);

/** True once `/config.json` has been read (or has failed and defaults apply). */
export const $configLoaded = atom<boolean>(false);

let loading: Promise<RuntimeConfig> | undefined;

/** Reads `/config.json` once per page, however many islands ask. */
export function ensureConfig(fetcher: typeof fetch = fetch): Promise<RuntimeConfig> {
  loading ??= loadRuntimeConfig(fetcher).then((config) => {
    $config.set(config);
    $configLoaded.set(true);
    return config;
  });
  return loading;
}

/** Forgets the loaded configuration; for tests. */
export function resetConfigForTests(): void {
  loading = undefined;
  $config.set(DEFAULT_CONFIG);
  $configLoaded.set(false);
}
