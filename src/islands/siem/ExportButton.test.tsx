import { act, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { startTestApi, type TestUser, visit } from '../shared/test-api.ts';
import { eventLine, ingest, spaceWithSource } from '../shared/test-ingest.ts';
import { ExportButton } from './ExportButton.tsx';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

let api: Awaited<ReturnType<typeof startTestApi>>;
let viewer: TestUser;
let spaceId: string;

// Past one server chunk (2 000 rows), a third of them blocked; one message a spreadsheet would run as a formula.
const N = 2300;
const from = new Date(Date.now() - 86_400_000).toISOString();
const to = new Date(Date.now() + 60_000).toISOString();

/** What the browser was handed to save: the file name and the blob's text. */
const downloads: { name: string; blob: Blob }[] = [];
let lastBlob: Blob | null = null;

beforeAll(async () => {
  api = await startTestApi();
  const space = await spaceWithSource(api);
  ({ viewer, spaceId } = space);
  const lines = Array.from({ length: N }, (_, i) =>
    eventLine(1 + i / 100, {
      path: `/item/${i}`,
      action: i % 3 === 0 ? 'blocked' : 'allowed',
      message: i === 5 ? '=cmd|calc' : `event ${i}`,
    }),
  );
  expect((await ingest(api, space.token, lines)).json.accepted).toBe(N);

  // The browser's edges that jsdom lacks: object URLs, and following a download link.
  URL.createObjectURL = (blob: Blob) => {
    lastBlob = blob;
    return 'blob:export';
  };
  URL.revokeObjectURL = () => undefined;
  document.addEventListener('click', (event) => {
    const link = event.target;
    if (link instanceof HTMLAnchorElement && link.download && lastBlob) {
      event.preventDefault();
      downloads.push({ name: link.download, blob: lastBlob });
    }
  });
});
afterAll(async () => {
  await api.stop();
});
beforeEach(() => {
  downloads.length = 0;
});

async function open(query: string) {
  await api.signInAs(viewer);
  visit(`/console/siem/${spaceId}`);
  render(<ExportButton spaceId={spaceId} query={query} from={from} to={to} />);
  return userEvent.setup();
}

describe('ExportButton', () => {
  test('CSV: shows progress, then saves the whole result under the server’s file name', async () => {
    await open('');
    // fireEvent: the click's own render is seen before the (fast, in-process) download ends.
    fireEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(screen.getByRole('progressbar')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Cancel export' })).toBeVisible();
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeDisabled();
    const done = await screen.findByText(/^Saved spaceguard-events-acme-/, undefined, { timeout: 30_000 });
    expect(done).toHaveTextContent(`: ${N.toLocaleString('en')} events.`);
    expect(downloads).toHaveLength(1);
    const [file] = downloads;
    expect(file?.name).toMatch(/^spaceguard-events-acme-\d{8}T\d{6}Z-\d{8}T\d{6}Z\.csv$/);
    expect(done).toHaveTextContent(file?.name ?? 'none');
    const text = (await file?.blob.text()) ?? '';
    const lines = text.trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'time,id,source,ip,country,method,host,path,status,action,severity,ruleIds,tags,message,userAgent',
    );
    expect(lines).toHaveLength(N + 1);
    expect(text).toContain(`"'=cmd|calc"`);
  });

  test('NDJSON exports only what the query matches', async () => {
    const user = await open('action:blocked');
    await user.click(screen.getByRole('button', { name: 'Export NDJSON' }));
    const blocked = Math.ceil(N / 3);
    const done = await screen.findByText(/^Saved spaceguard-events-/, undefined, { timeout: 30_000 });
    expect(done).toHaveTextContent(`: ${blocked.toLocaleString('en')} events.`);
    const rows = ((await downloads[0]?.blob.text()) ?? '')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(rows).toHaveLength(blocked);
    expect(rows.every((row) => row.action === 'blocked')).toBe(true);
    expect(downloads[0]?.name).toMatch(/\.ndjson$/);
  });

  test('cancel stops the export and saves nothing', async () => {
    await open('');
    fireEvent.click(screen.getByRole('button', { name: 'Export NDJSON' }));
    fireEvent.click(screen.getByRole('button', { name: 'Cancel export' }));
    expect(screen.getByText('Export cancelled; nothing was saved.')).toBeVisible();
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    // Whatever was still arriving is dropped.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(downloads).toHaveLength(0);
    expect(screen.getByText('Export cancelled; nothing was saved.')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Export NDJSON' })).toBeEnabled();
  });

  test('a query the API refuses is said with its position, and nothing is saved', async () => {
    const user = await open('status:>=abc');
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(/^Export failed: .+\(at character \d+\)/);
    expect(downloads).toHaveLength(0);
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeEnabled();
  });

  test('no axe violations while running and after an error (contrast is checked in the browser)', async () => {
    const user = await open('status:>=abc');
    fireEvent.click(screen.getByRole('button', { name: 'Export NDJSON' }));
    // A component, not a page: no landmark of its own (the screen has them).
    const rules = { 'color-contrast': { enabled: false }, region: { enabled: false } };
    const running = await act(() => axe.run(document.body, { rules }));
    expect(running.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
    await screen.findByRole('alert');
    await user.tab();
    const failed = await axe.run(document.body, { rules });
    expect(failed.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
  });
});
