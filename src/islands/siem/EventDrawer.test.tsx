import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import type { ComponentProps } from 'react';
import type { EventSummary } from '../../../contract/events.ts';
import { startTestApi, type TestUser, visit } from '../shared/test-api.ts';
import { eventLine, ingest, spaceWithSource } from '../shared/test-ingest.ts';
import { EventDrawer } from './EventDrawer.tsx';

vi.setConfig({ testTimeout: 30_000, hookTimeout: 120_000 });

let api: Awaited<ReturnType<typeof startTestApi>>;
let viewer: TestUser;
let spaceId: string;
let row: EventSummary;

// A component, not a page: no landmark of its own (the screen has them); contrast is checked in the browser.
const rules = { 'color-contrast': { enabled: false }, region: { enabled: false } };

beforeAll(async () => {
  api = await startTestApi();
  const space = await spaceWithSource(api);
  ({ viewer, spaceId } = space);
  const line = eventLine(5, {
    method: 'POST',
    host: 'shop.example.test',
    path: '/login',
    status: 403,
    action: 'blocked',
    severity: 'high',
    ruleIds: [941100],
    message: 'XSS Attack Detected via libinjection',
    upstreamTrace: 'trace-7f3a',
  });
  expect((await ingest(api, space.token, [line])).json.accepted).toBe(1);
  const page = await api.call('GET', `/spaces/${spaceId}/events`, viewer.cookie);
  row = page.json.items[0];
  expect(row).not.toHaveProperty('raw');
});
afterAll(async () => {
  await api.stop();
});

/** The event's detail path, as the drawer asks for it. */
const detailPath = () => `/api/spaces/${spaceId}/events/${row.id}`;

/**
 * Runs `body` with the first `times` requests for the event's detail answered by `answer` (which may `pass` it on
 * to the API), the rest by the API; answers how many detail requests were made.
 */
async function withDetail(
  answer: (pass: () => Promise<Response>) => Promise<Response>,
  times: number,
  body: () => Promise<void>,
): Promise<number> {
  const standIn = globalThis.fetch;
  let asked = 0;
  globalThis.fetch = ((input: RequestInfo | URL, init?: RequestInit) => {
    const path = new URL(input instanceof Request ? input.url : String(input), location.origin).pathname;
    if (path !== detailPath()) return standIn(input, init);
    asked += 1;
    return asked <= times ? answer(() => standIn(input, init)) : standIn(input, init);
  }) as typeof fetch;
  try {
    await body();
  } finally {
    globalThis.fetch = standIn;
  }
  return asked;
}

async function open(onClose = vi.fn(), more: Partial<ComponentProps<typeof EventDrawer>> = {}) {
  await api.signInAs(viewer);
  visit(`/console/siem/${spaceId}`);
  render(<EventDrawer spaceId={spaceId} event={row} onClose={onClose} {...more} />);
  return screen.getByRole('complementary', { name: /^Event / });
}

describe('the event drawer', () => {
  test('shows the row’s fields at once and the raw record after a loading state', async () => {
    // The API's answer is held until the loading state has been looked at.
    let release = (): void => undefined;
    const answered = new Promise<void>((resolve) => {
      release = resolve;
    });
    const held = (pass: () => Promise<Response>) => answered.then(pass);
    const asked = await withDetail(held, 1, async () => {
      const drawer = await open();
      expect(within(drawer).getByText('POST shop.example.test/login')).toBeInTheDocument();
      expect(within(drawer).getByText('XSS Attack Detected via libinjection')).toBeInTheDocument();
      expect(within(drawer).getByText('Loading the raw record…')).toHaveAttribute('role', 'status');
      expect(within(drawer).getByRole('region', { name: 'Raw record' })).toHaveAttribute('aria-busy', 'true');
      expect(within(drawer).queryByRole('tree')).toBeNull();
      const loading = await act(() => axe.run(document.body, { rules }));
      expect(loading.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
      release();
      const tree = await within(drawer).findByRole('tree', { name: 'Raw record' });
      expect(tree).toHaveTextContent('trace-7f3a');
      expect(within(drawer).queryByText('Loading the raw record…')).toBeNull();
      expect(within(drawer).getByRole('region', { name: 'Raw record' })).toHaveAttribute('aria-busy', 'false');
    });
    expect(asked).toBe(1);
  });

  test('a failed fetch says so, with Retry (by keyboard) that loads the record', async () => {
    const failure = async () =>
      new Response(
        JSON.stringify({ error: { code: 'internal', message: 'Something went wrong on our side; try again.' } }),
        {
          status: 500,
          headers: { 'content-type': 'application/json' },
        },
      );
    const asked = await withDetail(failure, 1, async () => {
      const user = userEvent.setup();
      const drawer = await open();
      const alert = await within(drawer).findByRole('alert');
      expect(alert).toHaveTextContent(
        'The raw record could not be loaded: Something went wrong on our side; try again.',
      );
      // The fields are still there.
      expect(within(drawer).getByText('XSS Attack Detected via libinjection')).toBeInTheDocument();
      const failed = await axe.run(document.body, { rules });
      expect(failed.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
      const retry = within(alert).getByRole('button', { name: 'Retry' });
      retry.focus();
      await user.keyboard('{Enter}');
      expect(within(drawer).getByRole('heading', { name: 'Raw record' })).toHaveFocus();
      const tree = await within(drawer).findByRole('tree', { name: 'Raw record' });
      expect(tree).toHaveTextContent('trace-7f3a');
      expect(within(drawer).queryByRole('alert')).toBeNull();
    });
    expect(asked).toBe(2);
  });

  test.each([
    {
      name: 'an event no longer stored',
      answer: async () =>
        new Response(JSON.stringify({ error: { code: 'not_found', message: 'No such event.' } }), { status: 404 }),
      expected: 'This event is no longer stored',
    },
    {
      name: 'the network down',
      answer: async () => {
        throw new TypeError('Failed to fetch');
      },
      expected: 'The raw record could not be loaded: Could not reach the server.',
    },
  ])('$name: "$expected"', async ({ answer, expected }) => {
    await withDetail(answer, 1, async () => {
      const drawer = await open();
      const alert = await within(drawer).findByRole('alert');
      expect(alert).toHaveTextContent(expected);
      expect(within(alert).getByRole('button', { name: 'Retry' })).toBeInTheDocument();
    });
  });

  test('takes the focus when it opens and Escape closes it', async () => {
    const user = userEvent.setup();
    const onClose = vi.fn();
    const drawer = await open(onClose);
    expect(within(drawer).getByRole('heading', { level: 2 })).toHaveFocus();
    await within(drawer).findByRole('tree', { name: 'Raw record' });
    await user.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  /** The row as the screen would have it for a client in France with tags. */
  const french = () => ({ ...row, ip: '2.2.2.2', country: 'FR', tags: ['attack-xss', 'paranoia level 1'] });
  const messages = { '941100': 'XSS Attack Detected via libinjection' };

  test('each filterable value has Filter for and Exclude, calling back with the query field', async () => {
    const user = userEvent.setup();
    const onFilter = vi.fn();
    const drawer = await open(vi.fn(), { onFilter, messages, event: french() });
    const cases: Array<[string, string, string, boolean]> = [
      ['Filter for action blocked', 'action', 'blocked', false],
      ['Exclude severity high', 'severity', 'high', true],
      ['Filter for client IP 2.2.2.2', 'ip', '2.2.2.2', false],
      ['Exclude country France (FR)', 'country', 'FR', true],
      ['Filter for host shop.example.test', 'host', 'shop.example.test', false],
      ['Exclude status 403', 'status', '403', true],
      ['Filter for rule 941100', 'rule', '941100', false],
      ['Exclude tag paranoia level 1', 'tag', 'paranoia level 1', true],
    ];
    for (const [name, field, value, exclude] of cases) {
      onFilter.mockClear();
      await user.click(within(drawer).getByRole('button', { name }));
      expect(onFilter).toHaveBeenCalledExactlyOnceWith(field, value, exclude);
    }
    // The country by name, each rule with its CRS message.
    expect(within(drawer).getByText('France')).toBeInTheDocument();
    const rule = within(drawer).getByText('941100 XSS Attack Detected via libinjection');
    expect(rule.closest('li')).toContainElement(within(drawer).getByRole('button', { name: 'Exclude rule 941100' }));
    await within(drawer).findByRole('tree', { name: 'Raw record' });
    const result = await axe.run(document.body, { rules });
    expect(result.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
  });

  test('without onFilter there are no filter buttons; without a permalink no link', async () => {
    const drawer = await open();
    expect(within(drawer).queryByRole('button', { name: /^(Filter for|Exclude) / })).toBeNull();
    expect(within(drawer).queryByRole('link', { name: 'Permalink' })).toBeNull();
    expect(within(drawer).getByRole('button', { name: 'Copy JSON' })).toBeInTheDocument();
  });

  test('Copy JSON puts the event with its raw record on the clipboard and says so', async () => {
    const user = userEvent.setup();
    const drawer = await open();
    await within(drawer).findByRole('tree', { name: 'Raw record' });
    await user.click(within(drawer).getByRole('button', { name: 'Copy JSON' }));
    expect(await within(drawer).findByText('Copied!')).toHaveAttribute('role', 'status');
    const copied = JSON.parse(await navigator.clipboard.readText());
    expect(copied).toMatchObject({ id: row.id, path: '/login', ruleIds: [941100] });
    expect(JSON.stringify(copied.raw)).toContain('trace-7f3a');
  });

  test('a refused clipboard is named', async () => {
    const user = userEvent.setup();
    const drawer = await open();
    const refuse = vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new DOMException('denied'));
    try {
      await user.click(within(drawer).getByRole('button', { name: 'Copy JSON' }));
      expect(await within(drawer).findByText(/The browser refused the clipboard/)).toHaveAttribute('role', 'status');
    } finally {
      refuse.mockRestore();
    }
  });

  test('the permalink links to the log with this event, and Copy link copies it whole', async () => {
    const user = userEvent.setup();
    const permalink = `/console/siem/${spaceId}?q=action%3Ablocked&range=24h&event=${row.id}`;
    const drawer = await open(vi.fn(), { permalink });
    expect(within(drawer).getByRole('link', { name: 'Permalink' })).toHaveAttribute('href', permalink);
    await user.click(within(drawer).getByRole('button', { name: 'Copy link' }));
    expect(await navigator.clipboard.readText()).toBe(`${location.origin}${permalink}`);
  });
});
