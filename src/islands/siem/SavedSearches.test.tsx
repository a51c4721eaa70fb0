import { fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { SAVED_SEARCH_PAGE_SIZE } from '../../stores/event-log.ts';
import type { EventLogView } from '../shared/event-log-url.ts';
import { startTestApi, type TestUser, visit } from '../shared/test-api.ts';
import { SavedSearches } from './SavedSearches.tsx';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

let api: Awaited<ReturnType<typeof startTestApi>>;
let owner: TestUser;
let analyst: TestUser;
let viewer: TestUser;
let spaceId: string;

beforeAll(async () => {
  api = await startTestApi();
  owner = await api.signUp('olivia@example.com', 'Olivia Owner');
  analyst = await api.signUp('ana@example.com', 'Ana Analyst');
  viewer = await api.signUp('vic@example.com', 'Vic Viewer');
  spaceId = (await api.call('POST', '/spaces', owner.cookie, { name: 'Acme' })).json.id;
  await api.join(spaceId, owner, analyst, 'analyst');
  await api.join(spaceId, owner, viewer, 'viewer');
});
afterAll(async () => {
  await api.stop();
});

const applied: EventLogView[] = [];
beforeEach(() => {
  applied.length = 0;
});

async function open(user: TestUser, current: EventLogView) {
  await api.signInAs(user);
  visit(`/console/siem/${spaceId}`);
  render(<SavedSearches spaceId={spaceId} current={current} onApply={(view) => applied.push(view)} />);
  await screen.findByRole('heading', { name: 'Saved searches' });
  await vi.waitFor(() => expect(screen.queryByText('Loading saved searches…')).not.toBeInTheDocument());
  return userEvent.setup();
}

const list = () => screen.queryByRole('list');

describe('SavedSearches', () => {
  test('an analyst saves the current search; it is listed and applies on click', async () => {
    const user = await open(analyst, { q: 'action:blocked tag:attack-sqli', range: '7d', from: null, to: null });
    expect(screen.getByText('No saved searches yet. Search for something, then save it below.')).toBeVisible();
    const form = screen.getByRole('form', { name: 'Save the current search' });
    expect(within(form).getByText('Saves “action:blocked tag:attack-sqli” over the last 7d.')).toBeVisible();
    await user.type(within(form).getByRole('textbox', { name: 'Name' }), 'SQLi this week');
    await user.click(within(form).getByRole('button', { name: 'Save search' }));
    expect(await screen.findByText('Saved “SQLi this week”.')).toBeVisible();
    expect(within(form).getByRole('textbox', { name: 'Name' })).toHaveValue('');
    const item = await screen.findByRole('button', { name: /^SQLi this week/ });
    expect(item).toHaveTextContent('action:blocked tag:attack-sqli');
    expect(item).toHaveTextContent('last 7d');
    await user.click(item);
    expect(applied).toEqual([{ q: 'action:blocked tag:attack-sqli', range: '7d', from: null, to: null }]);
  });

  test('an absolute range is saved as from and to and applied the same way', async () => {
    const view = { q: 'ip:203.0.113.7', range: null, from: '2026-11-20T10:00:00.000Z', to: '2026-11-20T12:00:00.000Z' };
    const user = await open(analyst, view);
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Incident window');
    await user.click(screen.getByRole('button', { name: 'Save search' }));
    await user.click(await screen.findByRole('button', { name: /^Incident window/ }));
    expect(applied).toEqual([view]);
  });

  test('a taken name is said next to the Name field, and what was typed stays', async () => {
    const user = await open(analyst, { q: '', range: '24h', from: null, to: null });
    const name = screen.getByRole('textbox', { name: 'Name' });
    await user.type(name, 'sqli THIS week');
    await user.click(screen.getByRole('button', { name: 'Save search' }));
    await vi.waitFor(() => expect(name).toHaveAttribute('aria-invalid', 'true'));
    expect(name).toHaveAccessibleDescription(/A saved search named “sqli THIS week” already exists in this space/);
    expect(name).toHaveValue('sqli THIS week');
  });

  test('a current query that does not parse is refused with its position', async () => {
    const user = await open(analyst, { q: 'status:>=abc', range: '24h', from: null, to: null });
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Broken');
    await user.click(screen.getByRole('button', { name: 'Save search' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/^The current query: .+\(at character \d+\)$/);
    expect(screen.queryByRole('button', { name: /^Broken/ })).not.toBeInTheDocument();
  });

  test('an analyst deletes a saved search', async () => {
    await api.call('POST', `/spaces/${spaceId}/saved-searches`, owner.cookie, {
      name: 'Old one',
      query: 'severity:low',
      range: '30d',
    });
    const user = await open(analyst, { q: '', range: '24h', from: null, to: null });
    await user.click(await screen.findByRole('button', { name: 'Delete saved search Old one' }));
    expect(await screen.findByText('Deleted “Old one”.')).toBeVisible();
    expect(screen.queryByRole('button', { name: /^Old one/ })).not.toBeInTheDocument();
    const left = await api.call('GET', `/spaces/${spaceId}/saved-searches`, owner.cookie);
    expect(left.json.items.map((s: { name: string }) => s.name)).not.toContain('Old one');
  });

  test('a viewer applies saved searches but cannot save or delete', async () => {
    const user = await open(viewer, { q: '', range: '24h', from: null, to: null });
    const items = within(list() as HTMLElement).getAllByRole('listitem');
    expect(items.map((item) => item.querySelector('.sg-saved__name')?.textContent)).toEqual([
      'Incident window',
      'SQLi this week',
    ]);
    expect(screen.queryByRole('button', { name: /^Delete/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Save the current search' })).not.toBeInTheDocument();
    expect(
      screen.getByText('Viewers can apply saved searches; an analyst, admin or owner can save new ones.'),
    ).toBeVisible();
    await user.click(screen.getByRole('button', { name: /^SQLi this week/ }));
    expect(applied).toEqual([{ q: 'action:blocked tag:attack-sqli', range: '7d', from: null, to: null }]);
  });

  test('past the first page, "Show more saved searches" is pressed once while the next page comes, which lists each search once', async () => {
    const many = (await api.call('POST', '/spaces', owner.cookie, { name: 'Many searches' })).json.id as string;
    const count = SAVED_SEARCH_PAGE_SIZE + 3;
    for (let i = 0; i < count; i += 1) {
      const name = `Search ${String(i).padStart(3, '0')}`;
      await api.call('POST', `/spaces/${many}/saved-searches`, owner.cookie, { name, range: '24h' });
    }
    await api.signInAs(owner);
    visit(`/console/siem/${many}`);
    render(<SavedSearches spaceId={many} current={{ q: '', range: '24h', from: null, to: null }} onApply={() => {}} />);
    const more = await screen.findByRole('button', { name: 'Show more saved searches' });
    const names = () => [...document.querySelectorAll('.sg-saved__name')].map((name) => name.textContent);
    expect(names()).toHaveLength(SAVED_SEARCH_PAGE_SIZE);
    // fireEvent: the click's own render is seen before the (fast, in-process) page comes; the second press is lost.
    fireEvent.click(more);
    expect(screen.getByRole('button', { name: 'Loading more saved searches…' })).toBeDisabled();
    fireEvent.click(more);
    await vi.waitFor(() => expect(screen.queryByRole('button', { name: /saved searches…$/ })).not.toBeInTheDocument());
    expect(names()).toHaveLength(count);
    expect(new Set(names()).size).toBe(count);
    expect(screen.queryByRole('button', { name: 'Show more saved searches' })).not.toBeInTheDocument();
  });

  test('no axe violations in the list and the form with a field error (contrast is checked in the browser)', async () => {
    const user = await open(analyst, { q: '', range: '24h', from: null, to: null });
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'SQLi this week');
    await user.click(screen.getByRole('button', { name: 'Save search' }));
    await vi.waitFor(() =>
      expect(screen.getByRole('textbox', { name: 'Name' })).toHaveAttribute('aria-invalid', 'true'),
    );
    const results = await axe.run(document.body, { rules: { 'color-contrast': { enabled: false } } });
    expect(results.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
  });
});
