/** For island tests (sources, event log, export): sends lines to the ingest API in process, as curl would (no cookie). */
import type { startTestApi } from './test-api.ts';

type TestApi = Awaited<ReturnType<typeof startTestApi>>;

/** A generic JSON event `minutesAgo` minutes old. */
export function eventLine(minutesAgo: number, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ time: new Date(Date.now() - minutesAgo * 60_000).toISOString(), ...extra });
}

/** Posts NDJSON lines with a source token; answers the status and the parsed body. */
export async function ingest(api: TestApi, token: string, lines: readonly string[]) {
  const res = await api.app.request(`${location.origin}/api/ingest/${token}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-ndjson' },
    body: lines.join('\n'),
  });
  return { status: res.status, json: (await res.json()) as { accepted?: number; errors?: unknown[] } };
}

/** A space "Acme" owned by Olivia, with Vic as its viewer and one JSON log source "edge" (its token to ingest with). */
export async function spaceWithSource(api: TestApi) {
  const owner = await api.signUp('olivia@example.com', 'Olivia Owner');
  const viewer = await api.signUp('vic@example.com', 'Vic Viewer');
  const spaceId: string = (await api.call('POST', '/spaces', owner.cookie, { name: 'Acme' })).json.id;
  await api.join(spaceId, owner, viewer, 'viewer');
  const source = await api.call('POST', `/spaces/${spaceId}/sources`, owner.cookie, { name: 'edge', kind: 'json' });
  return { owner, viewer, spaceId, token: source.json.token as string };
}
