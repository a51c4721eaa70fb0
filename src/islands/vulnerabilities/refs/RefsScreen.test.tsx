import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { JobRunner } from '../../../../server/services/jobs/runner.ts';
import { silentLogger } from '../../../../server/services/shared/logger.ts';
import { importWorker } from '../../../../server/services/vulns/workers/import-worker.ts';
import { quirks } from '../../../../tests/fixtures/osv/quirks.ts';
import { generatedRecord, makeZip } from '../../../../tests/fixtures/osv/zip.ts';
import { startTestApi, type TestUser, visit } from '../../shared/test-api.ts';
import { spaceWithSource } from '../../shared/test-ingest.ts';
import RefsScreen from '../RefsScreen.tsx';

vi.setConfig({ testTimeout: 30_000, hookTimeout: 120_000 });

const fixture = (name: string) => JSON.parse(readFileSync(resolve('tests/fixtures/osv', name), 'utf8'));

let api: Awaited<ReturnType<typeof startTestApi>>;
let owner: TestUser;
let viewer: TestUser;
let spaceId: string;

beforeAll(async () => {
  api = await startTestApi();
  ({ owner, viewer, spaceId } = await spaceWithSource(api));
  const records = [
    fixture('GHSA-4w2v-q235-vp99.json'),
    fixture('GHSA-h5c8-rqwp-cp95.json'),
    fixture('DSA-5576-1.json'),
    fixture('GHSA-9wx4-h78v-vm56.withdrawn.json'),
  ];
  const imported = await api.call('POST', `/spaces/${spaceId}/vuln-refs`, owner.cookie, records);
  expect(imported.json).toMatchObject({ status: 'done', imported: 3, withdrawn: 1 });
});
afterAll(async () => {
  await api.stop();
});

async function open(user: TestUser, search = '') {
  await api.signInAs(user);
  visit(`/console/vulnerabilities/refs/${spaceId}${search}`);
  return render(<RefsScreen />);
}

async function runImports() {
  const runner = new JobRunner({ db: api.db, workers: [importWorker], log: silentLogger });
  for (let polls = 0; polls < 20; polls++) if ((await runner.runOnce()) === 0) break;
  await runner.stop(5_000);
}

describe('RefsScreen', () => {
  test('a viewer searches by CVE alias (kept in the URL) and sees no import', async () => {
    await open(viewer);
    const table = await screen.findByRole('table', { name: 'Records of the library' });
    expect(within(table).getAllByRole('row')).toHaveLength(5);
    expect(within(table).getByText('withdrawn')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Import OSV records' })).not.toBeInTheDocument();
    const user = userEvent.setup();
    await user.type(screen.getByRole('searchbox', { name: 'Id, alias, package or words' }), 'CVE-2024-34064');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(location.search).toBe('?q=CVE-2024-34064');
    await vi.waitUntil(() => within(screen.getByRole('table')).queryAllByRole('row').length === 2);
    expect(screen.getByRole('link', { name: 'GHSA-h5c8-rqwp-cp95' })).toBeInTheDocument();
    expect(screen.getByText('Medium 5.3')).toBeInTheDocument();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Severity' }), 'high');
    expect(Object.fromEntries(new URLSearchParams(location.search))).toEqual({ q: 'CVE-2024-34064', severity: 'high' });
    expect(await screen.findByText(/No record matches these filters/)).toBeInTheDocument();
  });

  test('a record’s detail: Markdown without raw HTML, severity parts, ranges in words, references', async () => {
    await open(viewer);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('link', { name: 'GHSA-4w2v-q235-vp99' }));
    expect(location.search).toBe('?id=GHSA-4w2v-q235-vp99');
    const detail = await screen.findByRole('article', { name: 'GHSA-4w2v-q235-vp99' });
    expect(await within(detail).findByRole('heading', { name: 'Impact' })).toBeInTheDocument();
    expect(within(detail).getByRole('table')).toBeInTheDocument();
    expect(detail.querySelector('script')).toBeNull();
    expect(detail).toHaveTextContent(':tada:');
    expect(within(detail).getByText('from 2.0.0 before 2.3.1')).toBeInTheDocument();
    const parts = within(detail).getByRole('list', { name: 'Parts of the CVSS 3.1 vector' });
    expect(parts).toHaveTextContent('Attack Vector: Network');
    expect(parts).toHaveTextContent('Availability Impact: High');
    expect(detail).toHaveTextContent('7.5, high: from its CVSS vector.');
    const link = within(detail).getByRole('link', { name: 'https://nvd.nist.gov/vuln/detail/CVE-2024-24762' });
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    await user.click(within(detail).getByRole('button', { name: 'Back to the list' }));
    expect(location.search).toBe('');
    expect(await screen.findByRole('table', { name: 'Records of the library' })).toBeInTheDocument();
  });

  test('a record without a vector shows the ecosystem’s rating; an unknown id says so', async () => {
    const view = await open(viewer, '?id=DSA-5576-1');
    const detail = await screen.findByRole('article', { name: 'DSA-5576-1' });
    expect(detail).toHaveTextContent('medium: the ecosystem’s own rating (no CVSS vector).');
    expect(within(detail).getByText('every version before 3.0.11-1~deb12u2')).toBeInTheDocument();
    expect(detail).toHaveTextContent('not matched: Spaceguard does not order this ecosystem’s versions');
    view.unmount();
    await open(viewer, '?id=GHSA-none-0000-0000');
    expect(await screen.findByText('The library has no such record.')).toBeInTheDocument();
  });

  test('an admin uploads a JSON file and reads the summary with the refused record', async () => {
    await open(owner);
    const user = userEvent.setup();
    await screen.findByRole('heading', { name: 'Import OSV records' });
    const body = JSON.stringify([generatedRecord(1), fixture('invalid.json')]);
    const file = new File([body], 'two.json', { type: 'application/json' });
    await user.upload(screen.getByLabelText('OSV file'), file);
    await user.click(screen.getByRole('button', { name: 'Import' }));
    expect(
      await screen.findByText(/Imported two\.json: 1 new record, 0 updated, 0 unchanged, 0 withdrawn, 1 refused\./),
    ).toBeInTheDocument();
    const refused = screen.getByRole('table', { name: 'Refused files' });
    expect(within(refused).getByRole('rowheader', { name: 'two.json[1]' })).toBeInTheDocument();
    expect(refused).toHaveTextContent(/modified: /);
    expect(screen.getByRole('progressbar')).toHaveAttribute('max', '2');
    // The recent imports list the new one once the list is asked again.
    const recent = await screen.findByRole('table', { name: 'Recent imports' });
    await vi.waitUntil(() => within(recent).queryByText('two.json') !== null);
    expect(within(recent).getAllByRole('row')[1]).toHaveTextContent(
      '1 new, 0 updated, 0 unchanged, 0 withdrawn, 1 refused',
    );
  });

  test('a running zip import is picked up after a reload and followed to its end', async () => {
    const files = Array.from({ length: 250 }, (_, i) => ({
      name: `GHSA-gen0-${i}.json`,
      content: JSON.stringify(generatedRecord(i + 10)),
    }));
    const res = await api.app.request(`${location.origin}/api/spaces/${spaceId}/vuln-refs?fileName=all.zip`, {
      method: 'POST',
      headers: { cookie: owner.cookie, origin: location.origin, 'content-type': 'application/zip' },
      body: Buffer.from(makeZip(files)) as unknown as BodyInit,
    });
    expect(res.status).toBe(202);
    await open(owner);
    const bar = await screen.findByRole('progressbar', { name: 'all.zip' });
    expect(bar).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Import' })).toBeDisabled();
    await runImports();
    expect(await screen.findByText('250 of 250 files', {}, { timeout: 5_000 })).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'all.zip' })).toHaveAttribute('value', '250');
    expect(screen.getByText(/Imported all\.zip: 250 new records/)).toBeInTheDocument();
  });

  test('a Go record whose times are Go’s zero time shows them as unknown, in the list and the detail', async () => {
    const go = quirks.find((q) => q.record.id === 'GO-2024-3005')?.record;
    expect((await api.call('POST', `/spaces/${spaceId}/vuln-refs`, owner.cookie, go)).json).toMatchObject({
      imported: 1,
      refusedCount: 0,
    });
    await open(viewer, '?q=GO-2024-3005');
    const table = await screen.findByRole('table', { name: 'Records of the library' });
    await vi.waitUntil(() => within(table).queryByRole('link', { name: 'GO-2024-3005' }) !== null);
    const row = within(table).getAllByRole('row')[1];
    expect(row?.lastElementChild).toHaveTextContent(/^unknown$/);
    const user = userEvent.setup();
    await user.click(within(table).getByRole('link', { name: 'GO-2024-3005' }));
    const detail = await screen.findByRole('article', { name: 'GO-2024-3005' });
    const fact = (name: string) => within(detail).getByText(name).nextElementSibling;
    expect(fact('Modified')).toHaveTextContent(/^unknown$/);
    expect(fact('Published')).toHaveTextContent(/^unknown$/);
    expect(detail).not.toHaveTextContent(/\b0?001\b|2001/);
  });
});
