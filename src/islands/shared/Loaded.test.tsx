import { fireEvent, render, screen } from '@testing-library/react';
import { ApiError } from '../../lib/api.ts';
import { Loaded } from './Loaded.tsx';
import type { Loaded as LoadedState } from './use-api.ts';

const ready = <T,>(data: T): LoadedState<T> => ({ state: 'ready', data, refreshing: false });

describe('Loaded', () => {
  test('a URL without a space says the space does not exist, with a way back to the spaces', () => {
    render(
      <Loaded spaceId={null} loaded={ready('x')} retry={() => {}} loading="Loading…">
        {(data) => <p>{data}</p>}
      </Loaded>,
    );
    expect(screen.getByText('This space does not exist or you are not a member.')).toBeVisible();
    expect(screen.getByRole('link', { name: 'Go to your spaces' })).toHaveAttribute('href', '/spaces');
  });

  test('shows the loading line while the data, the space or the view is not there yet', () => {
    const { rerender } = render(
      <Loaded spaceId="s1" loaded={{ state: 'loading' }} retry={() => {}} loading="Loading alerts…">
        {() => <p>ready</p>}
      </Loaded>,
    );
    expect(screen.getByRole('status')).toHaveTextContent('Loading alerts…');
    rerender(
      <Loaded spaceId={undefined} loaded={ready(1)} retry={() => {}} loading="Loading alerts…">
        {() => <p>ready</p>}
      </Loaded>,
    );
    expect(screen.getByRole('status')).toHaveTextContent('Loading alerts…');
    rerender(
      <Loaded spaceId="s1" loaded={ready(1)} view={null} retry={() => {}} loading={<p role="status">Own line</p>}>
        {() => <p>ready</p>}
      </Loaded>,
    );
    expect(screen.getByRole('status')).toHaveTextContent('Own line');
    expect(screen.queryByText('ready')).toBeNull();
  });

  test('a failure says why and Retry asks again', () => {
    const retry = vi.fn();
    render(
      <Loaded spaceId="s1" loaded={{ state: 'error', error: new Error('Network down') }} retry={retry} loading="…">
        {() => <p>ready</p>}
      </Loaded>,
    );
    expect(screen.getByText('Network down')).toBeVisible();
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(retry).toHaveBeenCalledOnce();
  });

  test('a 404 shows what is missing here and where to go instead', () => {
    render(
      <Loaded
        loaded={{ state: 'error', error: new ApiError(404, 'not_found', 'gone') }}
        retry={() => {}}
        loading="…"
        notFound="No such alert."
        back={{ href: '/console/alert/s1', label: 'Go to the alerts' }}
      >
        {() => <p>ready</p>}
      </Loaded>,
    );
    expect(screen.getByText('No such alert.')).toBeVisible();
    expect(screen.getByRole('link', { name: 'Go to the alerts' })).toHaveAttribute('href', '/console/alert/s1');
  });

  test('once ready, the screen gets its data, its view and the space', () => {
    render(
      <Loaded spaceId="s1" loaded={ready({ name: 'Acme' })} view={{ tab: 'rules' }} retry={() => {}} loading="…">
        {(data, view, spaceId) => (
          <p>
            {data.name} {view.tab} {spaceId}
          </p>
        )}
      </Loaded>,
    );
    expect(screen.getByText('Acme rules s1')).toBeVisible();
    expect(screen.queryByRole('status')).toBeNull();
  });

  test('a screen may keep part of itself when its data fails', () => {
    render(
      <Loaded
        loaded={{ state: 'error', error: new Error('Network down') }}
        view={{ q: 'ssh' }}
        retry={() => {}}
        loading="…"
        failed={(error, view) => (
          <p>
            {view?.q}: {(error as Error).message}
          </p>
        )}
      >
        {() => <p>ready</p>}
      </Loaded>,
    );
    expect(screen.getByText('ssh: Network down')).toBeVisible();
  });
});
