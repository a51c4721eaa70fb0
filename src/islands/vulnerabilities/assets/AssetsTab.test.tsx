import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { useState } from 'react';
import { systemClock } from '../../../../server/clock.ts';
import { insertFirewall } from '../../../../server/test/firewall-row.ts';
import { startTestApi, stubModalDialogs, type TestUser, visit } from '../../shared/test-api.ts';
import { spaceWithSource } from '../../shared/test-ingest.ts';
import { AssetsTab } from './AssetsTab.tsx';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

let api: Awaited<ReturnType<typeof startTestApi>>;
let owner: TestUser;
let viewer: TestUser;
let spaceId: string;
let shopId: string;

const webShop = readFileSync(resolve('tests/fixtures/sbom/web-shop.cdx.json'), 'utf8');
const sbomFile = (text: string, name = 'acme-shop.cdx.json') => new File([text], name, { type: 'application/json' });

beforeAll(stubModalDialogs);
beforeAll(async () => {
  api = await startTestApi();
  ({ owner, viewer, spaceId } = await spaceWithSource(api));
  const shop = await api.call('POST', `/spaces/${spaceId}/assets`, owner.cookie, {
    name: 'Storefront',
    kind: 'application',
    environment: 'production',
    tags: ['shop'],
    components: [{ purl: 'pkg:npm/lodash@4.17.20' }, { purl: 'pkg:cargo/serde@1.0.130' }],
  });
  shopId = shop.json.id;
});
afterAll(async () => {
  await api.stop();
});

const shown: { findingsOf: string | null } = { findingsOf: null };

/** The tab as the assessment screen holds it: the open asset in its state. */
function Harness({ canManage, start }: { canManage: boolean; start: string | null }) {
  const [asset, setAsset] = useState<string | null>(start);
  return (
    <main>
      <AssetsTab
        spaceId={spaceId}
        canManage={canManage}
        asset={asset}
        onOpenAsset={setAsset}
        onShowFindings={(id) => {
          shown.findingsOf = id;
        }}
        actions={<button type="button">Assess now</button>}
      />
    </main>
  );
}

async function open(user: TestUser, canManage: boolean, start: string | null = null) {
  await api.signInAs(user);
  visit(`/console/vulnerabilities/assessment/${spaceId}`);
  render(<Harness canManage={canManage} start={start} />);
  return userEvent.setup();
}

describe('AssetsTab', () => {
  test('a viewer reads the list and an asset page: components, the one not assessed marked, no changes offered', async () => {
    const user = await open(viewer, false);
    const table = await screen.findByRole('table', { name: 'Assets' });
    expect(within(table).getByRole('row', { name: /Storefront/ })).toHaveTextContent(
      'StorefrontApplicationproductionshop21 not assessednone opennot yet',
    );
    expect(screen.queryByRole('button', { name: 'Add asset' })).not.toBeInTheDocument();
    await user.click(within(table).getByRole('button', { name: 'Storefront' }));
    const components = await screen.findByRole('table', { name: 'Components of Storefront' });
    expect(within(components).getByRole('row', { name: /serde/ })).toHaveTextContent(
      'not assessed (ecosystem cargo is not supported)',
    );
    expect(screen.getByRole('button', { name: 'Assess now' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit' })).not.toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Upload a new SBOM' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Show findings' }));
    expect(shown.findingsOf).toBe(shopId);
    await user.click(screen.getByRole('button', { name: 'All assets' }));
    expect(await screen.findByRole('table', { name: 'Assets' })).toBeInTheDocument();
  });

  test('an admin adds an asset: a bad line is named next to the components, the typed text stays', async () => {
    const user = await open(owner, true);
    await user.click(await screen.findByRole('button', { name: 'Add asset' }));
    const form = await screen.findByRole('form', { name: 'New asset' });
    await user.type(within(form).getByRole('textbox', { name: 'Name' }), 'Billing API');
    await user.selectOptions(within(form).getByRole('combobox', { name: 'Kind' }), 'host');
    const lines = within(form).getByRole('textbox', { name: 'Components' });
    await user.type(lines, 'pkg:npm/express@4.17.1{enter}{enter}pypi django 3.2.12{enter}pkg:npm');
    await user.click(within(form).getByRole('button', { name: 'Add asset' }));
    await vi.waitFor(() => expect(lines).toHaveAttribute('aria-invalid', 'true'));
    expect(within(form).getByText(/^Line 4: "pkg:npm" is not a package URL/)).toBeInTheDocument();
    expect(lines).toHaveValue('pkg:npm/express@4.17.1\n\npypi django 3.2.12\npkg:npm');
    const results = await axe.run(document.body, { rules: { 'color-contrast': { enabled: false } } });
    expect(results.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
    await user.type(lines, '/qs@6.7.0');
    await user.click(within(form).getByRole('button', { name: 'Add asset' }));
    expect(await screen.findByText('Billing API added with 3 components.')).toBeInTheDocument();
    expect(
      within(screen.getByRole('table', { name: 'Assets' })).getByRole('row', { name: /Billing API/ }),
    ).toHaveTextContent('Billing APIHost');
  });

  test('an admin uploads a new SBOM: a malformed one is named by its JSON path; a good one replaces and keeps history', async () => {
    const user = await open(owner, true, shopId);
    const form = await screen.findByRole('form', { name: 'Upload a new SBOM' });
    const input = within(form).getByLabelText('New SBOM');
    const broken = JSON.parse(webShop);
    broken.components[3].components[0].purl = 'pkg:npm';
    await user.upload(input, sbomFile(JSON.stringify(broken)));
    await user.click(within(form).getByRole('button', { name: 'Upload and replace' }));
    expect(
      await within(form).findByText(/^sbom\.components\[3\]\.components\[0\]\.purl: "pkg:npm" is not a package URL/),
    ).toBeInTheDocument();
    await user.upload(input, sbomFile('{ not json', 'notes.txt'));
    await user.click(within(form).getByRole('button', { name: 'Upload and replace' }));
    expect(await within(form).findByText(/^notes\.txt is not JSON/)).toBeInTheDocument();
    await user.upload(input, sbomFile(webShop));
    await user.click(within(form).getByRole('button', { name: 'Upload and replace' }));
    expect(
      await screen.findByText(
        'acme-shop.cdx.json: 21 components now make up version 2; version 1 is kept in the history.',
      ),
    ).toBeInTheDocument();
    const history = await screen.findByRole('table', { name: 'Inventory history' });
    expect(within(history).getByRole('row', { name: /Version 1/ })).toHaveTextContent('typed in2');
    await vi.waitFor(() =>
      expect(within(screen.getByRole('table', { name: 'Components of Storefront' })).getAllByRole('row')).toHaveLength(
        22,
      ),
    );
    await user.click(within(history).getByRole('button', { name: 'Version 1' }));
    const old = await screen.findByRole('table', { name: 'Components of version 1' });
    expect(within(old).getAllByRole('row')).toHaveLength(3);
    const results = await axe.run(document.body, { rules: { 'color-contrast': { enabled: false } } });
    expect(results.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
  });

  test('an admin edits and deletes an asset after confirming', async () => {
    // The test API runs on the server's real clock.
    const firewallId = await insertFirewall(api.db, spaceId, systemClock());
    const created = await api.call('POST', `/spaces/${spaceId}/assets`, owner.cookie, {
      name: 'Old box',
      kind: 'application',
      firewallId,
    });
    const user = await open(owner, true, created.json.id);
    await user.click(await screen.findByRole('button', { name: 'Edit' }));
    const form = await screen.findByRole('form', { name: 'Edit Old box' });
    const env = within(form).getByRole('textbox', { name: 'Environment' });
    await user.clear(env);
    await user.type(env, 'staging');
    expect(within(form).getByRole('combobox', { name: 'Firewall in front of it' })).toHaveValue(firewallId);
    // Replacing a typed inventory starts from its lines.
    await user.click(within(form).getByRole('radio', { name: 'Replace it with components typed here' }));
    expect(within(form).getByRole('textbox', { name: 'Components' })).toHaveValue('');
    await user.type(within(form).getByRole('textbox', { name: 'Components' }), 'npm left-pad 1.3.0');
    await user.click(within(form).getByRole('radio', { name: /Keep the current inventory/ }));
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Old box saved.')).toBeInTheDocument();
    const saved = await api.call('GET', `/spaces/${spaceId}/assets/${created.json.id}`, owner.cookie);
    expect(saved.json).toMatchObject({ environment: 'staging', firewallId, inventoryVersion: 1 });
    await vi.waitFor(() => expect(screen.getByText('staging')).toBeInTheDocument());
    await user.click(screen.getByRole('button', { name: 'Delete Old box' }));
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    const table = await screen.findByRole('table', { name: 'Assets' });
    await vi.waitFor(() => expect(within(table).queryByRole('row', { name: /Old box/ })).not.toBeInTheDocument());
  });
});
