/** New-build check: the build's id and manifest are files; every open page polls for the latest id. */

/** The seed's poll interval: one hour. */
export const BUILD_POLL_MS = 3_600_000;

/** Where the id of the latest deployed build is published. */
export const LATEST_BUILD_URL = '/_build/latest.json';

/** Where the manifest of a build is published. */
export function buildManifestUrl(id: string): string {
  return `/_build/meta/${encodeURIComponent(id)}.json`;
}

/** Reads the latest build id; null when the file is missing or malformed. */
export async function fetchLatestBuildId(fetcher: typeof fetch): Promise<string | null> {
  try {
    const response = await fetcher(LATEST_BUILD_URL, { cache: 'no-store' });
    if (!response.ok) return null;
    const body: unknown = await response.json();
    if (typeof body === 'object' && body !== null && 'id' in body && typeof body.id === 'string') return body.id;
  } catch {
    // Offline or a half-deployed site: try again at the next poll.
  }
  return null;
}

/** True when another complete build (its manifest is published) has replaced the running one. */
export async function isNewBuildAvailable(current: string, fetcher: typeof fetch): Promise<boolean> {
  const latest = await fetchLatestBuildId(fetcher);
  if (latest === null || latest === current) return false;
  try {
    const manifest = await fetcher(buildManifestUrl(latest), { cache: 'no-store' });
    return manifest.ok;
  } catch {
    return false;
  }
}
