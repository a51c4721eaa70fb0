import { act, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { JsonViewer } from './JsonViewer.tsx';

const doc = {
  event: { id: 'evt-1', action: 'blocked', score: 7, tags: ['sqli', 'xss', 'rce'] },
  client: { ip: '203.0.113.9', country: 'ID' },
  verified: false,
  note: null,
};

function item(name: string): HTMLElement {
  const found = screen
    .getAllByRole('treeitem')
    .find((element) => element.querySelector(':scope > .sg-json__label > .sg-json__key')?.textContent === name);
  if (!found) throw new Error(`no treeitem ${name}`);
  return found;
}

function row(element: HTMLElement): HTMLElement {
  // A treeitem is its row; its children sit in the group it owns.
  return element;
}

// userEvent.setup() installs its own clipboard, so the copy tests click with fireEvent.
// The toggle is a pointer affordance (aria-hidden); keyboard users have the arrow keys.
function toggle(element: HTMLElement): HTMLElement {
  const found = element.querySelector<HTMLElement>(':scope > .sg-json__toggle');
  if (!found) throw new Error('no toggle');
  return found;
}

let writeText: ReturnType<typeof vi.fn<(text: string) => Promise<void>>>;

beforeEach(() => {
  writeText = vi.fn<(text: string) => Promise<void>>(async () => undefined);
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
});

afterEach(() => {
  vi.useRealTimers();
});

describe('JsonViewer', () => {
  test('the toggle opens a node, rendering its children only then, and closes it again', async () => {
    const user = userEvent.setup();
    render(<JsonViewer data={doc} />);
    const event = item('event');
    expect(event).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByText('"evt-1"')).toBeNull();

    expect(toggle(event)).toHaveAttribute('title', 'Expand');
    await user.click(toggle(event));

    expect(event).toHaveAttribute('aria-expanded', 'true');
    const group = document.getElementById(event.getAttribute('aria-owns') ?? '');
    expect(group).toHaveAttribute('role', 'group');
    expect(within(group as HTMLElement).getByText('"evt-1"')).toBeInTheDocument();
    expect(event).not.toHaveTextContent('evt-1');

    expect(toggle(event)).toHaveAttribute('title', 'Collapse');
    await user.click(toggle(event));

    expect(event).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByText('"evt-1"')).toBeNull();
  });

  test.each([
    { name: 'event', expected: '{ "id": "evt-1", "action": "blocked", … }' },
    { name: 'client', expected: '{ "ip": "203.0.113.9", "country": "ID" }' },
  ])('a collapsed $name previews its first 2 entries: $expected', ({ name, expected }) => {
    render(<JsonViewer data={doc} />);
    expect(row(item(name)).querySelector('.sg-json__preview')).toHaveTextContent(expected);
  });

  test('a collapsed array previews its first 2 items and hides the preview once open', async () => {
    const user = userEvent.setup();
    render(<JsonViewer data={doc} expandDepth={2} />);
    const tags = item('tags');
    expect(row(tags).querySelector('.sg-json__preview')).toHaveTextContent('[ "sqli", "xss", … ]');
    await user.click(toggle(tags));
    expect(row(tags).querySelector('.sg-json__preview')).toBeNull();
  });

  test.each([
    { name: 'event', depth: 1, expected: '10px' },
    { name: 'tags', depth: 2, expected: '20px' },
    { name: '0', depth: 3, expected: '30px' },
  ])('a node at level $depth is indented $expected', ({ name, expected }) => {
    render(<JsonViewer data={doc} expandDepth={3} />);
    expect(row(item(name)).style.paddingLeft).toBe(expected);
    expect(row(screen.getAllByRole('treeitem')[0] as HTMLElement).style.paddingLeft).toBe('0px');
  });

  test.each([
    { name: 'id', expected: 'sg-json__string' },
    { name: 'score', expected: 'sg-json__number' },
    { name: 'verified', expected: 'sg-json__boolean' },
    { name: 'note', expected: 'sg-json__null' },
  ])('the value of $name is styled as $expected', ({ name, expected }) => {
    render(<JsonViewer data={doc} expandDepth={2} />);
    const value = row(item(name)).querySelector('.sg-json__label > :last-child');
    expect(value).toHaveClass(expected);
  });

  test("copy puts the node's JSON on the clipboard and shows 'Copied!' for exactly 2000 ms", async () => {
    vi.useFakeTimers();
    render(<JsonViewer data={doc} />);
    const client = item('client');

    await act(async () => {
      fireEvent.click(within(client).getByRole('button', { name: 'Copy client as JSON' }));
    });

    expect(writeText).toHaveBeenCalledTimes(1);
    expect(JSON.parse(writeText.mock.calls[0]?.[0] ?? '')).toEqual(doc.client);
    expect(writeText.mock.calls[0]?.[0]).toBe(JSON.stringify(doc.client, null, 2));
    expect(within(client).getByText('Copied!')).toBeInTheDocument();

    act(() => vi.advanceTimersByTime(1999));
    expect(within(client).getByText('Copied!')).toBeInTheDocument();

    act(() => vi.advanceTimersByTime(1));
    expect(within(client).queryByText('Copied!')).toBeNull();
  });

  test('a clipboard that refuses says the copy failed', async () => {
    writeText.mockRejectedValueOnce(new Error('denied'));
    render(<JsonViewer data={doc} />);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Copy root as JSON' }));
    });
    expect(writeText).toHaveBeenCalledTimes(1);
    expect(screen.getByText('Copy failed')).toBeInTheDocument();
    expect(screen.queryByText('Copied!')).toBeNull();
  });

  test('arrow keys move a single tab stop through the tree and open and close nodes', async () => {
    const user = userEvent.setup();
    render(<JsonViewer data={doc} />);
    const [root] = screen.getAllByRole('treeitem');
    expect(root).toHaveAttribute('tabindex', '0');
    expect(item('event')).toHaveAttribute('tabindex', '-1');

    await user.tab();
    expect(root).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(item('event')).toHaveFocus();
    expect(item('event')).toHaveAttribute('tabindex', '0');
    expect(root).toHaveAttribute('tabindex', '-1');

    await user.keyboard('{ArrowRight}');
    expect(item('event')).toHaveAttribute('aria-expanded', 'true');
    await user.keyboard('{ArrowRight}');
    expect(item('id')).toHaveFocus();
    await user.keyboard('{ArrowLeft}');
    expect(item('event')).toHaveFocus();
    await user.keyboard('{ArrowLeft}');
    expect(item('event')).toHaveAttribute('aria-expanded', 'false');
    await user.keyboard('{ArrowDown}');
    expect(item('client')).toHaveFocus();
    await user.keyboard('{End}');
    expect(item('note')).toHaveFocus();
    await user.keyboard('{Home}');
    expect(root).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(root).toHaveAttribute('aria-expanded', 'false');
  });

  test('a large array renders 100 children at a time with a button for more', async () => {
    const user = userEvent.setup();
    const big = Array.from({ length: 250 }, (_, index) => ({ index }));
    render(<JsonViewer data={big} />);
    expect(screen.getAllByRole('treeitem')).toHaveLength(101);

    await user.click(screen.getByRole('button', { name: 'Show 100 more (150 not shown)' }));
    expect(screen.getAllByRole('treeitem')).toHaveLength(201);
    await user.click(screen.getByRole('button', { name: 'Show 50 more (50 not shown)' }));
    expect(screen.getAllByRole('treeitem')).toHaveLength(251);
    expect(screen.queryByRole('button', { name: /more/ })).toBeNull();
  });

  test('a document of several megabytes opens with only its first level rendered', () => {
    const events = Array.from({ length: 20_000 }, (_, index) => ({
      id: index,
      message: 'x'.repeat(200),
      nested: { a: [1, 2, 3], b: { c: true } },
    }));
    expect(JSON.stringify(events).length).toBeGreaterThan(4_000_000);
    render(<JsonViewer data={{ events }} />);
    expect(screen.getAllByRole('treeitem')).toHaveLength(2);
    expect(item('events')).toHaveTextContent('20000 items');
  });
});
