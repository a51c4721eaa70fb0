import { type ReactNode, useId, useState } from 'react';
import { atLeast } from '../../../contract/roles.ts';
import type { SavedSearch } from '../../../contract/saved-searches.ts';
import { errorMessage } from '../../lib/api.ts';
import { $savedSearches, deleteSavedSearch, loadSavedSearches, saveSearch } from '../../stores/event-log.ts';
import { $space } from '../../stores/space.ts';
import { Alert } from '../shared/Alert.tsx';
import type { EventLogView } from '../shared/event-log-url.ts';
import { Field } from '../shared/Field.tsx';
import { LoadMoreButton } from '../shared/LoadMoreButton.tsx';
import { Problem } from '../shared/Problem.tsx';
import { all, useApi } from '../shared/use-api.ts';
import { usePagedList } from '../shared/use-paged-list.ts';
import { text, useSubmit } from '../shared/use-submit.ts';
import './SavedSearches.css';

export interface SavedSearchesProps {
  readonly spaceId: string;
  /** The event log's current view: what "Save search" stores. */
  readonly current: EventLogView;
  /** A saved search was picked: show its view (the search itself comes second). */
  readonly onApply: (view: EventLogView, search: SavedSearch) => void;
}

/** A saved search as the event log's view. */
export function viewOf(search: SavedSearch): EventLogView {
  return search.range
    ? { q: search.query, range: search.range, from: null, to: null }
    : { q: search.query, range: null, from: search.from, to: search.to };
}

/** "last 24h" or the absolute window in the reader's time. */
function describeRange(view: EventLogView): string {
  if (view.range) return `last ${view.range}`;
  if (view.from && view.to) return `${new Date(view.from).toLocaleString()} to ${new Date(view.to).toLocaleString()}`;
  return 'last 24h';
}

/** The body that saves a view: a relative range, or its absolute from/to. */
function bodyOf(name: string, view: EventLogView) {
  return view.range || !view.from || !view.to
    ? { name, query: view.q, range: view.range ?? '24h' }
    : { name, query: view.q, from: view.from, to: view.to };
}

/** The event log's saved searches: everyone picks one to apply it; analysts and up save the current view and delete. */
export function SavedSearches({ spaceId, current, onApply }: SavedSearchesProps) {
  const space = useApi($space);
  const firstPage = useApi($savedSearches);
  const loaded = all(space.loaded, firstPage.loaded);
  // The pages after the first ("Show more"): they stay while the first page refreshes after a delete.
  const pages = usePagedList(
    spaceId,
    firstPage.loaded.state === 'ready' ? firstPage.loaded.data : undefined,
    (cursor) => loadSavedSearches(spaceId, cursor),
    { keepRows: true },
  );
  // What was deleted here, hidden from the pages shown before the list answers again.
  const [removed, setRemoved] = useState<ReadonlySet<string>>(new Set());
  const [notice, setNotice] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const [name, setName] = useState('');
  const headingId = useId();

  const retry = (): void => {
    space.retry();
    firstPage.retry();
  };

  const submit = useSubmit(async (form) => {
    const saved = await saveSearch(spaceId, bodyOf(text(form, 'name').trim(), current));
    setName('');
    setNotice({ tone: 'success', text: `Saved “${saved.name}”.` });
    // The new search takes its place by name in the refreshed first page.
    pages.reset();
  });

  const remove = async (search: SavedSearch) => {
    setNotice(null);
    try {
      await deleteSavedSearch(spaceId, search.id);
      setRemoved((before) => new Set(before).add(search.id));
      setNotice({ tone: 'success', text: `Deleted “${search.name}”.` });
    } catch (error) {
      setNotice({ tone: 'error', text: `Could not delete “${search.name}”: ${errorMessage(error)}` });
    }
  };

  let body: ReactNode;
  if (loaded.state === 'loading') {
    body = (
      <p className="muted" role="status">
        Loading saved searches…
      </p>
    );
  } else if (loaded.state === 'error') {
    body = <Problem error={loaded.error} onRetry={retry} />;
  } else {
    const [{ role }] = loaded.data;
    const analyst = atLeast(role, 'analyst');
    const items = pages.items.filter((search) => !removed.has(search.id));
    // Field messages other than the name's concern the current view (query, range): said for the whole form.
    const viewProblems = Object.entries(submit.fields)
      .filter(([field]) => field !== 'name')
      .map(([field, message]) => `${field === 'query' ? 'The current query' : 'The current time range'}: ${message}`);
    body = (
      <>
        {items.length === 0 ? (
          <p className="sg-saved__empty muted">
            No saved searches yet.{' '}
            {analyst ? 'Search for something, then save it below.' : 'An analyst, admin or owner can save searches.'}
          </p>
        ) : (
          <ul className="sg-saved__list">
            {items.map((search) => (
              <li key={search.id} className="sg-saved__item">
                <button
                  type="button"
                  className="sg-saved__apply"
                  title={`Saved by ${search.createdByName}`}
                  onClick={() => onApply(viewOf(search), search)}
                >
                  <span className="sg-saved__name">{search.name}</span>
                  <span className="sg-saved__query">{search.query || 'all events'}</span>
                  <span className="sg-saved__range muted">{describeRange(viewOf(search))}</span>
                </button>
                {analyst && (
                  <button
                    type="button"
                    className="button secondary sg-saved__delete"
                    aria-label={`Delete saved search ${search.name}`}
                    onClick={() => remove(search)}
                  >
                    Delete
                  </button>
                )}
              </li>
            ))}
          </ul>
        )}
        <LoadMoreButton
          list={pages}
          label="Show more saved searches"
          loadingLabel="Loading more saved searches…"
          what="saved searches"
        />
        {notice && <Alert tone={notice.tone}>{notice.text}</Alert>}
        {analyst ? (
          <form className="sg-saved__form" aria-label="Save the current search" onSubmit={submit.onSubmit}>
            <Field
              label="Name"
              name="name"
              value={name}
              maxLength={80}
              autoComplete="off"
              hint={`Saves ${current.q ? `“${current.q}”` : 'all events'} over the ${describeRange(current)}.`}
              error={submit.fields.name}
              onChange={(event) => setName(event.target.value)}
            />
            <button type="submit" className="button" disabled={submit.pending}>
              {submit.pending ? 'Saving…' : 'Save search'}
            </button>
            {viewProblems.length > 0 && <Alert tone="error">{viewProblems.join(' ')}</Alert>}
            {submit.error && <Alert tone="error">{submit.error}</Alert>}
          </form>
        ) : (
          <p className="muted">Viewers can apply saved searches; an analyst, admin or owner can save new ones.</p>
        )}
      </>
    );
  }

  return (
    <section className="card panel sg-saved" aria-labelledby={headingId}>
      <h2 id={headingId}>Saved searches</h2>
      {body}
    </section>
  );
}
