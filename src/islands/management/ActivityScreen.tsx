import { useStore } from '@nanostores/react';
import { useMemo } from 'react';
import type { ExportFormat } from '../../../contract/constants/events.ts';
import { ApiError, errorMessage } from '../../lib/api.ts';
import { $config } from '../../lib/config.ts';
import { $activityChoices, activityExportUrl, activityFirstPage, loadActivityPage } from '../../stores/activity.ts';
import { $members } from '../../stores/members.ts';
import { $spaceId } from '../../stores/route.ts';
import { withApp } from '../app/with-app.tsx';
import { Alert } from '../shared/Alert.tsx';
import { Loaded } from '../shared/Loaded.tsx';
import { Problem } from '../shared/Problem.tsx';
import { useApi } from '../shared/use-api.ts';
import { usePagedList } from '../shared/use-paged-list.ts';
import { useUrlView } from '../shared/use-url-view.ts';
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
import './management.css';

/** /console/management/activity/{space_id}: the audit log with filters in the URL, "Load more" and export. */
export function ActivityScreen() {
  const spaceId = useStore($spaceId);
  // The URL holds the filters: read them once hydrated.
  const [filters, setFilters] = useUrlView(parseFilters, filterSearch);
  const firstPage = useMemo(() => activityFirstPage(filters && filterQuery(filters)), [filters]);
  const page = useApi(firstPage);
  const members = useApi($members);
  const choices = useApi($activityChoices);
  // Pages loaded after an older first page do not follow this one (new records arrived): they start again from it.
  const more = usePagedList(
    filters ? filterSearch(filters) : '',
    page.loaded.state === 'ready' ? page.loaded.data : undefined,
    (cursor) => loadActivityPage(spaceId ?? '', filterQuery(filters ?? NO_FILTERS), cursor),
  );
  useStore($config); // export links follow the API base once /config.json is read

  const apply = (next: ActivityFilters): void => {
    setFilters(next);
  };

  // The actor list is a convenience: the log shows without it when it fails.
  const loaded: typeof page.loaded = members.loaded.state === 'loading' ? { state: 'loading' } : page.loaded;
  return (
    <Loaded
      spaceId={spaceId}
      view={filters}
      loaded={loaded}
      retry={page.retry}
      loading="Loading activity…"
      failed={(error, filters) => {
        // Signed out or not a member: nothing else to show. Any other failure keeps the filters at hand.
        const fatal = error instanceof ApiError && (error.status === 401 || error.status === 404);
        return (
          <div className="stack sg-management">
            {!fatal && filters && <ActivityFilterForm filters={filters} members={[]} choices={null} onApply={apply} />}
            <Problem error={error} onRetry={page.retry} />
          </div>
        );
      }}
    >
      {(_first, filters, spaceId) => {
        const actors = members.loaded.state === 'ready' ? members.loaded.data.items : [];
        const { items, nextCursor } = more;

        const exportUrl = (format: ExportFormat): string => activityExportUrl(spaceId, format, filterQuery(filters));

        return (
          <div className="stack sg-management">
            <ActivityFilterForm
              filters={filters}
              members={actors}
              choices={choices.loaded.state === 'ready' ? choices.loaded.data : null}
              onApply={apply}
            />
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
              {more.error !== null && <Alert tone="error">{errorMessage(more.error)}</Alert>}
              {nextCursor && (
                <button
                  type="button"
                  className="button secondary"
                  disabled={more.loading}
                  onClick={() => void more.loadMore()}
                >
                  {more.loading ? 'Loading…' : more.error !== null ? 'Try again' : 'Load more'}
                </button>
              )}
            </section>
          </div>
        );
      }}
    </Loaded>
  );
}

export default withApp(ActivityScreen);
