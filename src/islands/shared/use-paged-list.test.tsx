import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { type Page, usePagedList } from './use-paged-list.ts';

function List({
  query,
  first,
  fetchPage,
  keepRows = false,
}: {
  readonly query: string;
  readonly first: Page<string> | undefined;
  readonly fetchPage: (cursor: string) => Promise<Page<string>>;
  readonly keepRows?: boolean;
}) {
  const list = usePagedList(query, first, fetchPage, { keepRows });
  return (
    <>
      <ul aria-label="Rows">
        {list.items.map((item) => (
          <li key={item}>{item}</li>
        ))}
      </ul>
      {list.error !== null && <p role="alert">{String(list.error)}</p>}
      {list.nextCursor && (
        <button type="button" disabled={list.loading} onClick={() => void list.loadMore()}>
          {list.loading ? 'Loading…' : 'Load more'}
        </button>
      )}
    </>
  );
}

const rows = () => screen.getAllByRole('listitem').map((row) => row.textContent);
const first: Page<string> = { items: ['a', 'b'], nextCursor: 'c2' };

describe('usePagedList', () => {
  test('Load more appends the next page by cursor, until the last', async () => {
    const fetchPage = vi.fn(async (cursor: string) =>
      cursor === 'c2' ? { items: ['c', 'd'], nextCursor: 'c4' } : { items: ['e'], nextCursor: null },
    );
    render(<List query="q" first={first} fetchPage={fetchPage} />);
    expect(rows()).toEqual(['a', 'b']);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Load more' })));
    expect(rows()).toEqual(['a', 'b', 'c', 'd']);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Load more' })));
    expect(rows()).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(fetchPage.mock.calls.map(([cursor]) => cursor)).toEqual(['c2', 'c4']);
    expect(screen.queryByRole('button')).toBeNull();
  });

  test('while a page loads the button says so and cannot be pressed again', async () => {
    let answer: (page: Page<string>) => void = () => {};
    const fetchPage = () => new Promise<Page<string>>((resolve) => (answer = resolve));
    render(<List query="q" first={first} fetchPage={fetchPage} />);
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(screen.getByRole('button', { name: 'Loading…' })).toBeDisabled();
    await act(async () => answer({ items: ['c'], nextCursor: null }));
    expect(rows()).toEqual(['a', 'b', 'c']);
  });

  test('a page that fails keeps the rows shown and offers to try again', async () => {
    const fetchPage = vi
      .fn<(cursor: string) => Promise<Page<string>>>()
      .mockRejectedValueOnce(new Error('Network down'))
      .mockResolvedValueOnce({ items: ['c'], nextCursor: null });
    render(<List query="q" first={first} fetchPage={fetchPage} />);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Load more' })));
    expect(screen.getByRole('alert')).toHaveTextContent('Network down');
    expect(rows()).toEqual(['a', 'b']);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Load more' })));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(rows()).toEqual(['a', 'b', 'c']);
  });

  test('a new query starts again from its first page', async () => {
    const fetchPage = async () => ({ items: ['c'], nextCursor: null });
    const { rerender } = render(<List query="q" first={first} fetchPage={fetchPage} />);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Load more' })));
    expect(rows()).toEqual(['a', 'b', 'c']);
    rerender(<List query="other" first={{ items: ['x'], nextCursor: 'x2' }} fetchPage={fetchPage} />);
    expect(rows()).toEqual(['x']);
  });

  test('a refreshed first page starts again, unless the rows are kept: then the scrolled rows stay as they were', async () => {
    const fetchPage = async () => ({ items: ['c'], nextCursor: 'c3' });
    const refreshed: Page<string> = { items: ['new', 'a'], nextCursor: 'b2' };
    const { rerender } = render(<List query="q" first={first} fetchPage={fetchPage} />);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Load more' })));
    rerender(<List query="q" first={refreshed} fetchPage={fetchPage} />);
    expect(rows()).toEqual(['new', 'a']);

    const kept = render(<List query="q" first={first} fetchPage={fetchPage} keepRows />);
    await act(async () => fireEvent.click(within(kept.container).getByRole('button', { name: 'Load more' })));
    kept.rerender(<List query="q" first={refreshed} fetchPage={fetchPage} keepRows />);
    expect(
      within(kept.container)
        .getAllByRole('listitem')
        .map((row) => row.textContent),
    ).toEqual(['a', 'b', 'c']);
    // A new query still starts again.
    kept.rerender(<List query="other" first={refreshed} fetchPage={fetchPage} keepRows />);
    expect(
      within(kept.container)
        .getAllByRole('listitem')
        .map((row) => row.textContent),
    ).toEqual(['new', 'a']);
  });
});
