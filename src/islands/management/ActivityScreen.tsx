import { useStore } from '@nanostores/react';
import { useCallback, useEffect, useState } from 'react';
import type { Activity, ActivityPage } from '../../../contract/activity.ts';
import type { Member } from '../../../contract/members.ts';
import { ApiError, api, apiUrl, errorMessage } from '../../lib/api.ts';
import { $config } from '../../stores/config.ts';
import { withApp } from '../app/with-app.tsx';
import { Alert } from '../shared/Alert.tsx';
import { noSpaceError, ScreenProblem } from '../shared/Problem.tsx';
import { useLoad } from '../shared/use-load.ts';
import { ActivityFilterForm } from './ActivityFilterForm.tsx';
import { ActivityTable } from './ActivityTable.tsx';
import {
  type ActivityFilters,
  filterQuery,
  filterSearch,
  hasFilters,
  NO_FILTERS,
  parseFilters,
} from './activity-filters.ts';
import { requireMe } from './members-data.ts';
import { useSpaceId } from './use-space-id.ts';
import './management.css';

const PAGE_SIZE = 50;

interface FirstPage {
  readonly page: ActivityPage;
  readonly members: readonly Member[];
}

/** /console/management/activity/{space_id}: the audit log with filters in the URL, "Load more" and export. */
export function ActivityScreen() {
  const spaceId = useSpaceId();
  const [filters, setFilters] = useState<ActivityFilters | null>(null);
  const [more, setMore] = useState<ActivityPage | null>(null);
  const [moreState, setMoreState] = useState<{ pending: boolean; error: string | null }>({
    pending: false,
    error: null,
  });
  useStore($config); // export links follow the API base once /config.json is read

  // The URL holds the filters: read them once hydrated.
  useEffect(() => {
    setFilters(parseFilters(location.search));
  }, []);

  const load = useCallback(async (): Promise<FirstPage> => {
    if (!spaceId || !filters) throw noSpaceError();
    await requireMe();
    const base = `/spaces/${spaceId}`;
    const [page, members] = await Promise.all([
      api<ActivityPage>(`${base}/activity`, { query: { ...filterQuery(filters), limit: PAGE_SIZE } }),
      // The actor list is a convenience: the log still shows when it fails.
      api<{ items: Member[] }>(`${base}/members`).then(
        (list) => list.items,
        () => [],
      ),
    ]);
    return { page, members };
  }, [spaceId, filters]);
  const { loaded, reload } = useLoad(spaceId === undefined || filters === null ? null : load);

  const apply = (next: ActivityFilters): void => {
    history.replaceState(history.state, '', `${location.pathname}${filterSearch(next)}${location.hash}`);
    setMore(null);
    setMoreState({ pending: false, error: null });
    setFilters(next);
  };

  if (loaded.state === 'loading' || !filters || !spaceId) {
    return (
      <p className="muted" role="status">
        Loading activity…
      </p>
    );
  }
  if (loaded.state === 'error') {
    // Signed out or not a member: nothing else to show. Any other failure keeps the filters at hand.
    const fatal = loaded.error instanceof ApiError && (loaded.error.status === 401 || loaded.error.status === 404);
    return (
      <div className="stack sg-management">
        {!fatal && <ActivityFilterForm filters={filters} members={[]} onApply={apply} />}
        <ScreenProblem error={loaded.error} onRetry={reload} />
      </div>
    );
  }
  const { page, members } = loaded.data;
  const items: readonly Activity[] = more ? [...page.items, ...more.items] : page.items;
  const nextCursor = more ? more.nextCursor : page.nextCursor;

  const loadMore = async (): Promise<void> => {
    if (!nextCursor) return;
    setMoreState({ pending: true, error: null });
    try {
      const next = await api<ActivityPage>(`/spaces/${spaceId}/activity`, {
        query: { ...filterQuery(filters), limit: PAGE_SIZE, cursor: nextCursor },
      });
      setMore({ items: [...(more?.items ?? []), ...next.items], nextCursor: next.nextCursor });
      setMoreState({ pending: false, error: null });
    } catch (error) {
      setMoreState({ pending: false, error: errorMessage(error) });
    }
  };
  const exportUrl = (format: 'ndjson' | 'csv'): string =>
    apiUrl(`/spaces/${spaceId}/activity/export`, { format, ...filterQuery(filters) });

  return (
    <div className="stack sg-management">
      <ActivityFilterForm filters={filters} members={members} onApply={apply} />
      <div className="row">
        <span className="muted">Export {hasFilters(filters) ? 'the filtered log' : 'the whole log'}:</span>
        <a className="button secondary" href={exportUrl('ndjson')} download>
          Export NDJSON
        </a>
        <a className="button secondary" href={exportUrl('csv')} download>
          Export CSV
        </a>
      </div>
      <section className="card panel" aria-labelledby="sg-activity-heading">
        <h2 id="sg-activity-heading">Activity</h2>
        {items.length === 0 ? (
          hasFilters(filters) ? (
            <div className="row">
              <p>No activity matches these filters.</p>
              <button type="button" className="button secondary" onClick={() => apply(NO_FILTERS)}>
                Show all activity
              </button>
            </div>
          ) : (
            <p className="muted">
              No activity yet. Changes to this space (settings, members, tokens) are recorded here as they happen.
            </p>
          )
        ) : (
          <ActivityTable items={items} />
        )}
        {moreState.error && <Alert tone="error">{moreState.error}</Alert>}
        {nextCursor && (
          <button
            type="button"
            className="button secondary"
            disabled={moreState.pending}
            onClick={() => void loadMore()}
          >
            {moreState.pending ? 'Loading…' : moreState.error ? 'Try again' : 'Load more'}
          </button>
        )}
      </section>
    </div>
  );
}

export default withApp(ActivityScreen);
