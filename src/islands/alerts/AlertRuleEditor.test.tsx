import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AlertRule } from '../../../contract/alert-rules.ts';
import { runAlertJobs, spaceWithAnalyst } from '../shared/test-alerts.ts';
import { startTestApi, type TestUser, visit } from '../shared/test-api.ts';
import { eventLine, ingest } from '../shared/test-ingest.ts';
import { AlertRuleEditor } from './AlertRuleEditor.tsx';
import { draftOfRule, EMPTY_DRAFT, type RuleDraft } from './rule-draft.ts';

vi.setConfig({ testTimeout: 30_000, hookTimeout: 120_000 });

let api: Awaited<ReturnType<typeof startTestApi>>;
let owner: TestUser;
let spaceId: string;
let analyst: TestUser;

beforeAll(async () => {
  api = await startTestApi();
  const space = await spaceWithAnalyst(api);
  ({ owner, analyst, spaceId } = space);
  const attack = (ip: string, minutesAgo: number) =>
    eventLine(minutesAgo, {
      ip,
      method: 'GET',
      path: '/search',
      status: 403,
      action: 'blocked',
      tags: ['attack-sqli'],
    });
  const lines = [
    ...[1, 2, 3, 4].map((minute) => attack('198.51.100.7', minute)),
    ...[1, 2].map((minute) => attack('203.0.113.9', minute)),
    eventLine(3, { ip: '192.0.2.1', path: '/', status: 200 }),
  ];
  expect((await ingest(api, space.token, lines)).json.accepted).toBe(lines.length);
});
afterAll(async () => {
  await api.stop();
});

async function open(initial: RuleDraft = EMPTY_DRAFT) {
  await api.signInAs(owner);
  visit(`/console/alert/${spaceId}?tab=rules`);
  const onSaved = vi.fn();
  render(
    <AlertRuleEditor
      spaceId={spaceId}
      rule={null}
      initial={initial}
      canEdit
      canWork
      onSaved={onSaved}
      onDeleted={vi.fn()}
    />,
  );
  return { form: screen.getByRole('form', { name: 'New alert rule' }), onSaved };
}

/** The editor of a saved rule, as an admin (`canEdit`) or an analyst sees it. */
function editSaved(rule: AlertRule, canEdit: boolean, onDeleted = vi.fn()) {
  return render(
    <AlertRuleEditor
      spaceId={spaceId}
      rule={rule}
      initial={draftOfRule(rule)}
      canEdit={canEdit}
      canWork
      onSaved={vi.fn()}
      onDeleted={onDeleted}
    />,
  );
}

describe('AlertRuleEditor', () => {
  test('the query is checked as it is typed; a refused save shows the API messages at their fields and keeps the form', async () => {
    const { form, onSaved } = await open();
    const user = userEvent.setup();
    await user.type(within(form).getByRole('textbox', { name: 'Name' }), 'Bursts');
    await user.selectOptions(within(form).getByRole('combobox', { name: 'Kind' }), 'threshold');
    const query = within(form).getByRole('textbox', { name: 'Query' });
    await user.type(query, 'tag:attack-sqli (');
    expect(query).toHaveAttribute('aria-invalid', 'true');
    expect(within(form).getByText(/\(at character \d+\)$/)).toBeInTheDocument();
    await user.type(query, '{backspace}{backspace}');
    expect(query).not.toHaveAttribute('aria-invalid');
    await user.type(within(form).getByRole('textbox', { name: 'Title template (optional)' }), 'SQLi from {{ip}');

    // A threshold rule starts at more than 10 events in 5 minutes; with both cleared, the API's 400 names both fields.
    const threshold = within(form).getByRole('textbox', { name: 'More than (events)' });
    const minutes = within(form).getByRole('textbox', { name: 'In (minutes)' });
    expect([threshold, minutes].map((input) => (input as HTMLInputElement).value)).toEqual(['10', '5']);
    await user.clear(threshold);
    await user.clear(minutes);
    await user.click(within(form).getByRole('button', { name: 'Create rule' }));
    expect(
      await within(form).findByText('A threshold rule needs a threshold: it fires above this many events.'),
    ).toBeInTheDocument();
    expect(within(form).getByText('A threshold rule needs a window in minutes.')).toBeInTheDocument();
    expect(within(form).getByRole('textbox', { name: 'More than (events)' })).toHaveAttribute('aria-invalid', 'true');
    expect(onSaved).not.toHaveBeenCalled();
    expect(within(form).getByRole('textbox', { name: 'Name' })).toHaveValue('Bursts');
    expect(query).toHaveValue('tag:attack-sqli');
    expect(within(form).getByRole('textbox', { name: 'Title template (optional)' })).toHaveValue('SQLi from {ip}');

    // A webhook with a bad address and a short secret: the messages sit at the channel's fields.
    await user.type(within(form).getByRole('textbox', { name: 'More than (events)' }), '3');
    await user.type(within(form).getByRole('textbox', { name: 'In (minutes)' }), '10');
    await user.click(within(form).getByRole('button', { name: 'Add webhook' }));
    const secret = within(form).getByRole('textbox', { name: 'Signing secret (Webhook channel 1)' });
    expect((secret as HTMLInputElement).value).toMatch(/^[0-9a-f]{64}$/);
    await user.clear(secret);
    await user.type(secret, 'short');
    await user.type(within(form).getByRole('textbox', { name: 'Webhook URL (Webhook channel 1)' }), 'ftp://x');
    await user.click(within(form).getByRole('button', { name: 'Create rule' }));
    expect(
      await within(form).findByText('Use an http:// or https:// address without a user name or password in it.'),
    ).toBeInTheDocument();
    expect(within(form).getByText('Use a secret of at least 16 characters.')).toBeInTheDocument();
    expect(onSaved).not.toHaveBeenCalled();

    await user.click(within(form).getByRole('button', { name: 'Generate a secret for Webhook channel 1' }));
    const url = within(form).getByRole('textbox', { name: 'Webhook URL (Webhook channel 1)' });
    await user.clear(url);
    await user.type(url, 'http://127.0.0.1:9/hook');
    await user.click(within(form).getByRole('button', { name: 'Create rule' }));
    await vi.waitUntil(() => onSaved.mock.calls.length > 0);
    const [saved, created] = onSaved.mock.calls[0] ?? [];
    expect(created).toBe(true);
    expect(saved).toMatchObject({ name: 'Bursts', kind: 'threshold', threshold: 3, windowMinutes: 10 });
    expect(saved.channels[0]).toMatchObject({ kind: 'webhook', url: 'http://127.0.0.1:9/hook' });
  });

  test('a silence rule watches a source chosen from the list for a window', async () => {
    const { form, onSaved } = await open();
    const user = userEvent.setup();
    await user.type(within(form).getByRole('textbox', { name: 'Name' }), 'Edge went quiet');
    await user.selectOptions(within(form).getByRole('combobox', { name: 'Kind' }), 'silence');
    expect(within(form).queryByRole('textbox', { name: 'Query' })).not.toBeInTheDocument();
    expect(within(form).queryByRole('group', { name: /Group by/ })).not.toBeInTheDocument();
    await user.click(within(form).getByRole('button', { name: 'Create rule' }));
    expect(
      await within(form).findByText('A silence rule watches one source or one firewall: choose exactly one.'),
    ).toBeInTheDocument();
    const source = within(form).getByRole('combobox', { name: 'Source' });
    await within(form).findByRole('option', { name: 'edge' });
    await user.selectOptions(source, 'edge');
    const quiet = within(form).getByRole('textbox', { name: 'Alert after this many minutes without events' });
    await user.clear(quiet);
    await user.type(quiet, '30');
    await user.click(within(form).getByRole('button', { name: 'Create rule' }));
    await vi.waitUntil(() => onSaved.mock.calls.length > 0);
    expect(onSaved.mock.calls[0]?.[0]).toMatchObject({
      kind: 'silence',
      windowMinutes: 30,
      firewallId: null,
      sourceId: expect.any(String),
    });
  });

  test('preview against the last 24 h shows the groups the rule would have alerted on, with a link to the events', async () => {
    const { form } = await open({
      ...EMPTY_DRAFT,
      name: 'SQLi',
      kind: 'threshold',
      query: 'tag:attack-sqli',
      threshold: '2',
      windowMinutes: '10',
      groupBy: ['ip'],
      titleTemplate: 'SQLi from {ip}',
    });
    expect(within(form).getByRole('checkbox', { name: 'ip' })).toBeChecked();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Preview against the last 24 h' }));
    const groups = await screen.findByRole('table', { name: 'Groups the rule would have alerted on' });
    expect(within(groups).getAllByRole('row')).toHaveLength(2);
    expect(within(groups).getByRole('rowheader', { name: 'ip=198.51.100.7' })).toBeInTheDocument();
    expect(within(groups).getByText('SQLi from 198.51.100.7')).toBeInTheDocument();
    expect(
      screen.getByText(/^This rule would have fired (once|\d+ times) in the last 24 h, opening 1 alert\./),
    ).toBeVisible();
    expect(screen.getByRole('link', { name: 'Open the matching events' })).toHaveAttribute(
      'href',
      expect.stringMatching(new RegExp(`^/console/siem/${spaceId}\\?q=`)),
    );
  });

  test('a saved rule: send test per channel, its suppressions removable by an analyst, delete asked twice', async () => {
    const rule = (
      await api.call('POST', `/spaces/${spaceId}/alert-rules`, owner.cookie, {
        name: 'Every SQLi',
        severity: 'critical',
        kind: 'match',
        query: 'tag:attack-sqli',
        groupBy: ['ip'],
        channels: [{ kind: 'email', to: ['soc@example.com'] }],
      })
    ).json;
    await ingest(
      api,
      (await api.call('POST', `/spaces/${spaceId}/sources`, owner.cookie, { name: 'more', kind: 'json' })).json.token,
      [eventLine(1, { ip: '198.51.100.7', tags: ['attack-sqli'] })],
    );
    await runAlertJobs(api);
    const alerts = (await api.call('GET', `/spaces/${spaceId}/alerts?ruleId=${rule.id}`, owner.cookie)).json.items;
    expect(alerts).toHaveLength(1);
    await api.call('POST', `/spaces/${spaceId}/alerts/${alerts[0].id}/suppress`, analyst.cookie, {
      days: 3,
      reason: 'Our own scanner',
    });

    const user = userEvent.setup();
    await api.signInAs(owner);
    visit(`/console/alert/${spaceId}?tab=rules`);
    const onDeleted = vi.fn();
    const view = editSaved(rule, true, onDeleted);
    await user.click(screen.getByRole('button', { name: 'Send test' }));
    expect(await screen.findByText(/soc@example\.com/, { selector: 'span' })).toBeInTheDocument();
    const suppressions = await screen.findByRole('table', { name: 'Suppressions' });
    expect(within(suppressions).getByRole('rowheader', { name: 'ip=198.51.100.7' })).toBeInTheDocument();
    expect(within(suppressions).getByText('Our own scanner')).toBeInTheDocument();
    expect(within(suppressions).getByText('Ana Analyst')).toBeInTheDocument();
    view.unmount();

    // An analyst reads the rule without saving it, and removes the suppression.
    await api.signInAs(analyst);
    visit(`/console/alert/${spaceId}?tab=rules`);
    editSaved(rule, false);
    expect(screen.queryByRole('button', { name: 'Save rule' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send test' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete rule' })).not.toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Name' })).toBeDisabled();
    await user.click(await screen.findByRole('button', { name: 'Remove the suppression of ip=198.51.100.7' }));
    await user.click(screen.getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText(/^No group of this rule is suppressed\./)).toBeInTheDocument();
    cleanup();

    await api.signInAs(owner);
    editSaved(rule, true, onDeleted);
    await user.click(screen.getByRole('button', { name: 'Delete rule' }));
    const confirm = screen.getByRole('group', { name: 'Delete “Every SQLi”?' });
    expect(within(confirm).getByRole('button', { name: 'Delete rule' })).toHaveFocus();
    await user.click(within(confirm).getByRole('button', { name: 'Delete rule' }));
    await vi.waitUntil(() => onDeleted.mock.calls.length > 0);
    expect(onDeleted).toHaveBeenCalledWith('Every SQLi');
  });
});
