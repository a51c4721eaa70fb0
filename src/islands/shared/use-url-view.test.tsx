import { act, fireEvent, render, screen } from '@testing-library/react';
import { useUrlView } from './use-url-view.ts';

interface View {
  readonly tab: string;
  readonly q: string;
}
const read = (search: string): View => {
  const params = new URLSearchParams(search);
  return { tab: params.get('tab') ?? 'list', q: params.get('q') ?? '' };
};
const write = (view: View): string => {
  const params = new URLSearchParams();
  if (view.tab !== 'list') params.set('tab', view.tab);
  if (view.q) params.set('q', view.q);
  return params.toString();
};

function Screen({ onRead }: { readonly onRead?: (view: View) => void }) {
  const [view, change] = useUrlView(read, write, onRead ? { onRead, popstate: true } : { popstate: true });
  if (!view) return <p role="status">Loading…</p>;
  return (
    <>
      <p>
        Tab {view.tab}, search “{view.q}”
      </p>
      <button type="button" onClick={() => change({ ...view, tab: 'rules' })}>
        Rules
      </button>
      <button type="button" onClick={() => change({ ...view, q: 'nginx' }, { push: true })}>
        Search
      </button>
    </>
  );
}

beforeEach(() => history.replaceState(null, '', '/console/alert/s1'));

describe('useUrlView', () => {
  test('reads the view from the URL on load', () => {
    history.replaceState(null, '', '/console/alert/s1?tab=rules&q=sshd');
    const onRead = vi.fn();
    render(<Screen onRead={onRead} />);
    expect(screen.getByText('Tab rules, search “sshd”')).toBeVisible();
    expect(onRead).toHaveBeenCalledWith({ tab: 'rules', q: 'sshd' });
  });

  test('a change shows the new view and keeps it in the URL, in place; a reload reads it back', () => {
    const { unmount } = render(<Screen />);
    const entries = history.length;
    fireEvent.click(screen.getByRole('button', { name: 'Rules' }));
    expect(screen.getByText('Tab rules, search “”')).toBeVisible();
    expect(location.pathname + location.search).toBe('/console/alert/s1?tab=rules');
    expect(history.length).toBe(entries);
    unmount();
    render(<Screen />);
    expect(screen.getByText('Tab rules, search “”')).toBeVisible();
  });

  test('a change made as a new history entry is undone by Back', async () => {
    render(<Screen />);
    const entries = history.length;
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(location.search).toBe('?q=nginx');
    expect(history.length).toBe(entries + 1);
    await act(async () => {
      history.back();
      await new Promise((done) => addEventListener('popstate', done, { once: true }));
    });
    expect(screen.getByText('Tab list, search “”')).toBeVisible();
  });
});
