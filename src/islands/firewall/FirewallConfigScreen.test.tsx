import { fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { startTestApi, type TestUser, visit } from '../shared/test-api.ts';
import FirewallConfigScreen from './FirewallConfigScreen.tsx';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

let api: Awaited<ReturnType<typeof startTestApi>>;
let owner: TestUser;
let viewer: TestUser;
let spaceId: string;

beforeAll(async () => {
  api = await startTestApi();
  owner = await api.signUp('olivia@example.com', 'Olivia Owner');
  viewer = await api.signUp('vic@example.com', 'Vic Viewer');
  spaceId = (await api.call('POST', '/spaces', owner.cookie, { name: 'Acme' })).json.id;
  await api.join(spaceId, owner, viewer, 'viewer');
});
afterAll(async () => {
  await api.stop();
});

let counter = 0;
/** A fresh firewall (the free plan allows one: the previous one is deleted first). */
async function firewall(): Promise<string> {
  for (const item of (await api.call('GET', `/spaces/${spaceId}/firewalls`, owner.cookie)).json.items) {
    await api.call('DELETE', `/spaces/${spaceId}/firewalls/${item.id}`, owner.cookie, { confirmName: item.name });
  }
  counter += 1;
  const created = await api.call('POST', `/spaces/${spaceId}/firewalls`, owner.cookie, {
    name: `shop${counter}`,
    hostnames: ['shop.example.com'],
    upstream: 'http://127.0.0.1:3000',
    mode: 'detect',
  });
  return created.json.id;
}

async function open(user: TestUser, id: string) {
  await api.signInAs(user);
  visit(`/console/firewall/config/${spaceId}/${id}`);
  const view = render(<FirewallConfigScreen />);
  await screen.findByRole('tablist', { name: 'Firewall settings' });
  return view;
}

const versions = async (id: string) =>
  (await api.call('GET', `/spaces/${spaceId}/firewalls/${id}/versions`, owner.cookie)).json.items;

describe('FirewallConfigScreen', () => {
  test('tabs by keyboard; edits in two tabs stay when switching and save once as one new version with only what changed', async () => {
    const id = await firewall();
    await open(owner, id);
    const user = userEvent.setup();
    const general = screen.getByRole('tab', { name: 'General' });
    expect(general).toHaveAttribute('aria-selected', 'true');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Mode' }), 'block');

    general.focus();
    await user.keyboard('{ArrowRight}');
    const managed = screen.getByRole('tab', { name: 'Managed rules' });
    expect(managed).toHaveFocus();
    expect(managed).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tab', { name: 'General (changed)' })).toBeInTheDocument();
    await user.keyboard('{End}');
    expect(screen.getAllByRole('tab').at(-1)).toHaveFocus();
    await user.keyboard('{Home}');
    expect(screen.getByRole('tab', { name: /^General/ })).toHaveFocus();
    await user.keyboard('{ArrowRight}');

    await user.click(await screen.findByRole('radio', { name: /^Level 2\./ }));
    expect(await screen.findByText('SQL injection')).toBeInTheDocument();
    await user.click(screen.getByRole('checkbox', { name: /^SQL injection/ }));
    expect(screen.getByRole('checkbox', { name: /^Initialisation/ })).toBeDisabled();
    await user.click(screen.getByRole('tab', { name: /^General/ }));
    expect(screen.getByRole('combobox', { name: 'Mode' })).toHaveValue('block');
    expect(screen.getByText('Unsaved changes to mode, managedRules, made from version 1.')).toBeInTheDocument();

    await user.type(screen.getByRole('textbox', { name: 'Comment for this version (optional)' }), 'stricter');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Saved as version 2.')).toBeInTheDocument();
    expect(screen.getByText('No unsaved changes (version 2).')).toBeInTheDocument();
    const list = await versions(id);
    expect(list).toHaveLength(2);
    expect(list[0]).toMatchObject({ version: 2, comment: 'stricter' });
    const saved = (await api.call('GET', `/spaces/${spaceId}/firewalls/${id}`, owner.cookie)).json;
    expect(saved.mode).toBe('block');
    expect(saved.managedRules).toMatchObject({
      paranoiaLevel: 2,
      disabledGroups: ['REQUEST-942-APPLICATION-ATTACK-SQLI'],
    });
  });

  test('a save from a stale version shows both sides; keep mine on top saves over the newer version', async () => {
    const id = await firewall();
    await open(owner, id);
    const user = userEvent.setup();
    const name = screen.getByRole('textbox', { name: 'Name' });
    await user.clear(name);
    await user.type(name, 'mine');
    // Someone else saves meanwhile.
    await api.call('PATCH', `/spaces/${spaceId}/firewalls/${id}`, owner.cookie, { name: 'theirs', version: 1 });
    await user.click(screen.getByRole('button', { name: 'Save' }));
    const conflict = await screen.findByRole('alert', { name: /someone saved version 2 meanwhile/ });
    expect(conflict).toHaveTextContent('Olivia Owner');
    expect(within(conflict).getByText('Your draft (from version 1)').nextSibling).toHaveTextContent('"mine"');
    expect(within(conflict).getByText('Saved version 2').nextSibling).toHaveTextContent('"theirs"');
    await user.click(within(conflict).getByRole('button', { name: 'Keep my changes on top of version 2' }));
    expect(screen.getByText('Unsaved changes to name, made from version 2.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Saved as version 3.')).toBeInTheDocument();
    expect((await api.call('GET', `/spaces/${spaceId}/firewalls/${id}`, owner.cookie)).json.name).toBe('mine');
  });

  test('a refused exclusion: the message at its field, the tab marked', async () => {
    const id = await firewall();
    await open(owner, id);
    const user = userEvent.setup();
    await user.click(screen.getByRole('tab', { name: 'Exclusions' }));
    await user.click(await screen.findByRole('button', { name: 'Add an exclusion' }));
    await user.type(screen.getByRole('spinbutton', { name: 'Rule id' }), '942100');
    await user.click(screen.getByRole('button', { name: 'Add an exclusion' }));
    const ids = screen.getAllByRole('spinbutton', { name: 'Rule id' });
    await user.type(ids[1] as HTMLElement, '949110');
    await user.click(screen.getByRole('tab', { name: /^General/ }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    const tab = await screen.findByRole('tab', { name: 'Exclusions (has errors)' });
    expect(tab).toHaveAttribute('aria-selected', 'true');
    const second = screen.getAllByRole('spinbutton', { name: 'Rule id' })[1] as HTMLElement;
    expect(second).toHaveAttribute('aria-invalid', 'true');
    expect(second).toHaveAccessibleDescription(/Rules 949110, 959100, 980130, 980140 .* would switch the firewall off/);
    expect(screen.getAllByRole('spinbutton', { name: 'Rule id' })[0]).not.toHaveAttribute('aria-invalid');
    expect(await versions(id)).toHaveLength(1);

    // An unknown rule: refused by the API against the installed CRS, at its field.
    await user.clear(second);
    await user.type(second, '123');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(
      await screen.findByText(
        'Rule 123 is not in the installed Core Rule Set, nor one of this firewall’s custom rules.'.replace('’', "'"),
      ),
    ).toBeInTheDocument();
  });

  test('history: versions with author and comment, a settings and file diff of any two, rollback as a new version', async () => {
    const id = await firewall();
    await api.call('PATCH', `/spaces/${spaceId}/firewalls/${id}`, owner.cookie, {
      mode: 'block',
      version: 1,
      comment: 'go live',
    });
    await open(owner, id);
    const user = userEvent.setup();
    await user.click(screen.getByRole('tab', { name: 'History' }));
    const table = await screen.findByRole('table', { name: 'Versions' });
    const newest = within(table).getByRole('rowheader', { name: '2 (newest)' }).closest('tr') as HTMLElement;
    expect(newest).toHaveTextContent('Olivia Owner');
    expect(newest).toHaveTextContent('go live');
    const settings = await screen.findByRole('region', { name: 'Settings, version 1 to version 2' });
    expect(within(settings).getByText('"mode": "detect",', { exact: false })).toHaveClass('sg-diff--removed');
    expect(within(settings).getByText('"mode": "block",', { exact: false })).toHaveClass('sg-diff--added');
    expect(screen.getAllByRole('region', { name: /, version 1 to version 2$/ }).length).toBeGreaterThan(1);
    await user.click(screen.getByRole('radio', { name: 'Unified' }));
    expect(
      within(screen.getByRole('region', { name: 'Settings, version 1 to version 2' })).getAllByRole('columnheader'),
    ).toHaveLength(3);

    await user.click(within(table).getByRole('button', { name: 'Roll back to version 1' }));
    await user.click(screen.getByRole('button', { name: 'Roll back' }));
    expect(await screen.findByText('Rolled back: version 3 has the settings of version 1.')).toBeInTheDocument();
    const three = (await screen.findByRole('rowheader', { name: '3 (newest)' })).closest('tr') as HTMLElement;
    expect(three).toHaveTextContent('Rollback to version 1 (same files as version 1: nothing changed for the WAF)');
    expect(screen.getByRole('rowheader', { name: '2' }).closest('tr')).not.toHaveTextContent('same files');
    expect((await api.call('GET', `/spaces/${spaceId}/firewalls/${id}`, owner.cookie)).json.mode).toBe('detect');
  });

  test('preview: the newest version’s files to copy and download; connect: rotating the token shows the new one once', async () => {
    const id = await firewall();
    await open(owner, id);
    const user = userEvent.setup();
    await user.click(screen.getByRole('tab', { name: 'Preview' }));
    expect(await screen.findByRole('heading', { name: 'Generated files of version 1' })).toBeInTheDocument();
    const files = await screen.findAllByRole('region', { name: /^Contents of / });
    expect(files.length).toBeGreaterThan(0);
    expect(document.body).toHaveTextContent('SecRuleEngine DetectionOnly');
    expect(screen.getAllByRole('button', { name: /^Download / }).length).toBe(files.length);
    expect(screen.queryByRole('figure', { name: 'Run the connector' })).not.toBeInTheDocument();
    // The token and the command have their own tab.
    await user.click(screen.getByRole('tab', { name: 'Connect' }));
    expect(await screen.findByRole('figure', { name: 'Run the connector' })).toHaveTextContent(
      '--token $SPACEGUARD_WAF_TOKEN',
    );
    await user.click(screen.getByRole('button', { name: 'Rotate token' }));
    await user.click(screen.getByRole('button', { name: 'Rotate' }));
    const token = (await screen.findByRole('textbox', { name: 'Connector token' })) as HTMLInputElement;
    expect(screen.getByRole('figure', { name: 'Run the connector' })).toHaveTextContent(
      `--token ${token.value} --listen`,
    );
  });

  test('IP lists: paste many, bad lines named and kept, counts; a rate limit; one save', async () => {
    const id = await firewall();
    await open(owner, id);
    const user = userEvent.setup();
    await user.click(screen.getByRole('tab', { name: 'IP lists' }));
    const paste = await screen.findByRole('textbox', { name: 'Add to Deny list' });
    await user.type(paste, '203.0.113.7 scanner{enter}nonsense{enter}198.51.100.0/24');
    await user.click(screen.getByRole('button', { name: 'Add to Deny list' }));
    expect(paste).toHaveAccessibleDescription(/line 2: "nonsense" is not an IP address or CIDR range\./);
    expect(paste).toHaveValue('nonsense');
    expect(screen.getByRole('heading', { name: 'Deny list (2 entries)' })).toBeInTheDocument();
    const deny = screen.getByRole('table', { name: 'Deny list' });
    expect(within(deny).getByRole('rowheader', { name: '203.0.113.7/32' }).closest('tr')).toHaveTextContent('scanner');
    await user.click(within(deny).getByRole('button', { name: 'Remove 198.51.100.0/24 from Deny list' }));
    expect(screen.getByRole('heading', { name: 'Deny list (1 entry)' })).toBeInTheDocument();

    await user.click(screen.getByRole('tab', { name: 'Rate limits' }));
    await user.click(await screen.findByRole('button', { name: 'Add a rate limit' }));
    const path = screen.getByRole('textbox', { name: 'Path prefix' });
    await user.clear(path);
    await user.type(path, '/login');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Saved as version 2.')).toBeInTheDocument();
    const saved = (await api.call('GET', `/spaces/${spaceId}/firewalls/${id}`, owner.cookie)).json;
    expect(saved.ipDeny).toEqual([{ cidr: '203.0.113.7/32', comment: 'scanner' }]);
    expect(saved.rateLimits).toEqual([{ path: '/login', requests: 60, windowSeconds: 60, action: 'block' }]);
  });

  test('rate limits: the tab says what nginx does; a window nginx cannot enforce is refused at its field', async () => {
    const id = await firewall();
    await open(owner, id);
    const user = userEvent.setup();
    await user.click(screen.getByRole('tab', { name: 'Rate limits' }));
    await user.click(await screen.findByRole('button', { name: 'Add a rate limit' }));
    const limit = screen.getByRole('group', { name: 'Rate limit 1: /' });
    expect(limit).toHaveTextContent(
      'Lets up to 60 requests through at once, then one more every 1 s (nginx limit_req rate=1r/s).',
    );
    const requests = within(limit).getByRole('spinbutton', { name: 'Requests' });
    await user.clear(requests);
    await user.type(requests, '5');
    const window = within(limit).getByRole('spinbutton', { name: 'Window (seconds)' });
    await user.clear(window);
    await user.type(window, '3600');
    const refusal =
      'nginx cannot count 5 requests per 3,600 s: the slowest rate it enforces is 1 request per 60 s, so 5 requests need a window of at most 300 s.';
    expect(limit).toHaveTextContent(`Not enforceable: ${refusal}`);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await within(limit).findByRole('spinbutton', { name: 'Window (seconds)' })).toHaveAccessibleDescription(
      refusal,
    );
    expect((await api.call('GET', `/spaces/${spaceId}/firewalls/${id}`, owner.cookie)).json.version).toBe(1);
    await user.clear(window);
    await user.type(window, '300');
    expect(limit).toHaveTextContent(
      'Lets up to 5 requests through at once, then one more every 62.5 s (nginx limit_req rate=1r/m).',
    );
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Saved as version 2.')).toBeInTheDocument();
  });

  test('custom rules: conditions ANDed with header, operator and negate, order by buttons, off; a bad regex refused at its field', async () => {
    const id = await firewall();
    await open(owner, id);
    const user = userEvent.setup();
    await user.click(screen.getByRole('tab', { name: 'Custom rules' }));
    await user.click(await screen.findByRole('button', { name: 'Add a custom rule' }));
    await user.click(screen.getByRole('button', { name: 'Add a custom rule' }));
    const second = screen.getByRole('group', { name: 'Rule 2: Rule 2' });
    const name = within(second).getByRole('textbox', { name: 'Name' });
    await user.clear(name);
    await user.type(name, 'no bots');
    const first = within(second).getByRole('group', { name: 'Condition 1' });
    await user.selectOptions(within(first).getByRole('combobox', { name: 'Field' }), 'header');
    await user.type(within(first).getByRole('textbox', { name: 'Header name' }), 'X-Api-Key');
    await user.selectOptions(within(first).getByRole('combobox', { name: 'Operator' }), 'regex');
    const value = within(first).getByRole('textbox', { name: 'Value' });
    await user.clear(value);
    await user.type(value, '(unclosed');
    await user.click(within(first).getByRole('checkbox', { name: 'Not: match when this condition is false' }));
    await user.click(within(second).getByRole('button', { name: 'Add a condition (AND) to rule 2' }));
    expect(within(second).getByRole('group', { name: 'Condition 2 (AND)' })).toBeInTheDocument();
    await user.click(within(second).getByRole('checkbox', { name: 'Enabled' }));
    await user.click(screen.getByRole('button', { name: 'Move rule 2 up' }));
    expect(screen.getByRole('group', { name: 'Rule 1: no bots (off)' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByRole('tab', { name: 'Custom rules (has errors)' });
    const rule = screen.getByRole('group', { name: 'Rule 1: no bots (off)' });
    const bad = within(within(rule).getByRole('group', { name: 'Condition 1' })).getByRole('textbox', {
      name: 'Value',
    });
    expect(bad).toHaveAttribute('aria-invalid', 'true');
    await user.clear(bad);
    await user.type(bad, '^sk_');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Saved as version 2.')).toBeInTheDocument();
    const saved = (await api.call('GET', `/spaces/${spaceId}/firewalls/${id}`, owner.cookie)).json;
    expect(saved.customRules.map((rule: { name: string; enabled: boolean }) => [rule.name, rule.enabled])).toEqual([
      ['no bots', false],
      ['Rule 1', true],
    ]);
    expect(saved.customRules[0].conditions).toEqual([
      { field: 'header', header: 'X-Api-Key', operator: 'regex', value: '^sk_', negate: true },
      { field: 'method', operator: 'equals', value: 'POST' },
    ]);
  });

  test('custom rules: dragged by a handle onto another rule, up or down, they take its place in the draft and the save', async () => {
    const id = await firewall();
    await open(owner, id);
    const user = userEvent.setup();
    await user.click(screen.getByRole('tab', { name: 'Custom rules' }));
    await screen.findByRole('button', { name: 'Add a custom rule' });
    for (let i = 0; i < 3; i += 1) await user.click(screen.getByRole('button', { name: 'Add a custom rule' }));
    /** The rules' names, top to bottom, as the draft has them. */
    const order = () =>
      screen
        .getAllByRole('group', { name: /^Rule \d+: / })
        .map((group) => (within(group).getByRole('textbox', { name: 'Name' }) as HTMLInputElement).value);
    expect(order()).toEqual(['Rule 1', 'Rule 2', 'Rule 3']);

    // Rule 3 up onto rule 1: it lands first, the others shift down; the rule under the pointer is marked meanwhile.
    const handle = screen.getByTitle('Drag rule 3 to another place');
    fireEvent.dragStart(handle);
    const target = screen.getByRole('group', { name: 'Rule 1: Rule 1' });
    fireEvent.dragOver(target);
    expect(target).toHaveClass('sg-fw-item--drop');
    fireEvent.drop(target);
    fireEvent.dragEnd(handle);
    expect(order()).toEqual(['Rule 3', 'Rule 1', 'Rule 2']);
    expect(screen.getByRole('group', { name: 'Rule 1: Rule 3' })).not.toHaveClass('sg-fw-item--drop');

    // Now the first (Rule 3) down onto the second.
    fireEvent.dragStart(screen.getByTitle('Drag rule 1 to another place'));
    fireEvent.dragOver(screen.getByRole('group', { name: 'Rule 2: Rule 1' }));
    fireEvent.drop(screen.getByRole('group', { name: 'Rule 2: Rule 1' }));
    expect(order()).toEqual(['Rule 1', 'Rule 3', 'Rule 2']);
    expect(screen.getByText('Unsaved changes to customRules, made from version 1.')).toBeInTheDocument();

    // A drop with no drag from a handle (a file, text from elsewhere) changes nothing.
    fireEvent.dragOver(screen.getByRole('group', { name: 'Rule 3: Rule 2' }));
    fireEvent.drop(screen.getByRole('group', { name: 'Rule 3: Rule 2' }));
    expect(order()).toEqual(['Rule 1', 'Rule 3', 'Rule 2']);

    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Saved as version 2.')).toBeInTheDocument();
    const saved = (await api.call('GET', `/spaces/${spaceId}/firewalls/${id}`, owner.cookie)).json;
    expect(saved.customRules.map((rule: { name: string }) => rule.name)).toEqual(['Rule 1', 'Rule 3', 'Rule 2']);
  });

  test('countries: a searchable list in step with the map’s state; saved as codes', async () => {
    const id = await firewall();
    await open(owner, id);
    const user = userEvent.setup();
    await user.click(screen.getByRole('tab', { name: 'Countries' }));
    expect(await screen.findByRole('figure', { name: 'World map of blocked countries' })).toBeInTheDocument();
    await user.type(screen.getByRole('searchbox', { name: 'Search countries' }), 'fran');
    await user.click(screen.getByRole('checkbox', { name: 'France FR' }));
    await user.clear(screen.getByRole('searchbox', { name: 'Search countries' }));
    await user.type(screen.getByRole('searchbox', { name: 'Search countries' }), 'KP');
    await user.click(screen.getByRole('checkbox', { name: /^North Korea KP$/ }));
    expect(screen.getByText('2 countries blocked: France, North Korea.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Saved as version 2.')).toBeInTheDocument();
    expect((await api.call('GET', `/spaces/${spaceId}/firewalls/${id}`, owner.cookie)).json.countryBlock).toEqual([
      'FR',
      'KP',
    ]);
  });

  test('a viewer sees every setting read-only, with no save', async () => {
    const id = await firewall();
    await open(viewer, id);
    expect(screen.getByRole('textbox', { name: 'Name' })).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
    expect(
      screen.getByText('You can read this firewall’s settings; only admins and owners of this space can change them.'),
    ).toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(screen.getByRole('tab', { name: 'Managed rules' }));
    expect(await screen.findByRole('radio', { name: /^Level 1\./ })).toBeChecked();
    expect(screen.getByRole('radio', { name: /^Level 1\./ })).toBeDisabled();
    await user.click(screen.getByRole('tab', { name: 'Exclusions' }));
    await screen.findByRole('group', { name: 'Exclusions' });
    expect(screen.queryByRole('button', { name: 'Add an exclusion' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'History' }));
    expect(await screen.findByRole('table', { name: 'Versions' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Roll back/ })).not.toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'Connect' }));
    expect(await screen.findByRole('heading', { name: 'Connector token' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Rotate token' })).not.toBeInTheDocument();
  });
});
