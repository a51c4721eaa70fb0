import { expect, test } from 'vitest';
import { buildManifestUrl, isNewBuildAvailable, LATEST_BUILD_URL } from './build-check.ts';

function site(files: Record<string, unknown>): typeof fetch {
  return (async (input: RequestInfo | URL) => {
    const url = String(input);
    return url in files ? new Response(JSON.stringify(files[url])) : new Response('missing', { status: 404 });
  }) as typeof fetch;
}

test('offers a reload when another build is live with its manifest', async () => {
  const fetcher = site({ [LATEST_BUILD_URL]: { id: 'b2' }, [buildManifestUrl('b2')]: { id: 'b2' } });
  expect(await isNewBuildAvailable('b1', fetcher)).toBe(true);
});

test.each([
  ['the same build', { [LATEST_BUILD_URL]: { id: 'b1' } }],
  ['a build whose manifest is not there yet', { [LATEST_BUILD_URL]: { id: 'b2' } }],
  ['no latest file', {}],
  ['a malformed latest file', { [LATEST_BUILD_URL]: { build: 'b2' } }],
])('does not offer a reload for %s', async (_name, files) => {
  expect(await isNewBuildAvailable('b1', site(files))).toBe(false);
});
