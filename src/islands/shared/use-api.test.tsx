import { render, screen } from '@testing-library/react';
import ConsoleUser from '../console/ConsoleUser.tsx';
import SpacesScreen from '../spaces/SpacesScreen.tsx';
import { startTestApi, type TestUser, visit } from './test-api.ts';

vi.setConfig({ testTimeout: 30_000, hookTimeout: 120_000 });

let api: Awaited<ReturnType<typeof startTestApi>>;
let owner: TestUser;
let spaceId: string;

beforeAll(async () => {
  api = await startTestApi();
  owner = await api.signUp('olivia@example.com', 'Olivia Owner');
  spaceId = (await api.call('POST', '/spaces', owner.cookie, { name: 'Acme' })).json.id;
  await api.call('POST', '/spaces', owner.cookie, { name: 'Beta' });
});
afterAll(async () => {
  await api.stop();
});

/** Runs `body` with every API path the islands ask for recorded, through the test API's fetch stand-in. */
async function recordingRequests(body: (asked: readonly string[]) => Promise<void>): Promise<void> {
  const standIn = globalThis.fetch;
  const asked: string[] = [];
  globalThis.fetch = ((input: RequestInfo | URL, init?: RequestInit) => {
    asked.push(new URL(input instanceof Request ? input.url : String(input), location.origin).pathname);
    return standIn(input, init);
  }) as typeof fetch;
  try {
    await body(asked);
  } finally {
    globalThis.fetch = standIn;
  }
}

describe('API stores', () => {
  test('two islands on one page that show the spaces share one request', async () => {
    await api.signInAs(owner);
    visit(`/console/${spaceId}`);
    await recordingRequests(async (asked) => {
      render(
        <>
          <ConsoleUser />
          <SpacesScreen />
        </>,
      );
      const cards = await screen.findByRole('list', { name: 'Your spaces' });
      expect(cards).toHaveTextContent('Beta');
      const switcher = await screen.findByRole('combobox', { name: 'Space' });
      expect(switcher).toHaveValue(spaceId);
      expect(asked.filter((path) => path === '/api/spaces')).toHaveLength(1);
    });
  });
});
