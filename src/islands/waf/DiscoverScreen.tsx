import { useStore } from '@nanostores/react';
import { type FormEvent, useCallback, useEffect, useRef, useState } from 'react';
import { type DiscoverGroup, discoverGroups } from '../../../contract/constants/waf.ts';
import { atLeast } from '../../../contract/roles.ts';
import type { DiscoverAnswer, DiscoverItem } from '../../../contract/waf.ts';
import { $firewalls } from '../../stores/firewalls.ts';
import { $spaceId } from '../../stores/route.ts';
import { $space } from '../../stores/space.ts';
import { $discover, $discoverSearch, type DiscoverSearch, loadDiscoverPage } from '../../stores/waf.ts';
import { withApp } from '../app/with-app.tsx';
import { Alert } from '../shared/Alert.tsx';
import { absoluteRange, parseRange, type RangeKey } from '../shared/event-log-url.ts';
import { LazyRemedyDialog } from '../shared/LazyRemedyDialog.tsx';
import { Loaded } from '../shared/Loaded.tsx';
import { LoadMoreButton } from '../shared/LoadMoreButton.tsx';
import { Problem } from '../shared/Problem.tsx';
import { QueryBar, useQueryDraft } from '../shared/QueryBar.tsx';
import type { RemedyDraft } from '../shared/RemedyDialog.tsx';
import { useApi } from '../shared/use-api.ts';
import { useLastData } from '../shared/use-last-data.ts';
import { type Page, usePagedList } from '../shared/use-paged-list.ts';
import { useUrlView } from '../shared/use-url-view.ts';
import { DiscoverTable } from './DiscoverTable.tsx';
import { type DiscoverView, readDiscoverView, writeDiscoverView } from './discover-view.ts';
import '../shared/panels.css';
import '../shared/console-screens.css';
import './waf.css';

/** The range presets discover offers; any other range is a custom one. */
const PRESETS: readonly RangeKey[] = ['1h', '24h', '7d'];
const groupLabels: Readonly<Record<DiscoverGroup, string>> = {
  ip: 'Client IP',
  rule: 'Rule',
  path: 'Path',
  country: 'Country',
};

/** The search a view stands for now: its range as an absolute window. */
function searchOf(view: DiscoverView, now: number): DiscoverSearch {
  return { q: view.q, ...absoluteRange(view, now), groupBy: view.groupBy, sort: view.sort, scope: view.scope };
}

/** A page of groups as a paged list's page: the next starts after the groups answered so far, until all are. */
function groupPage(answer: DiscoverAnswer, offset: number): Page<DiscoverItem> {
  const next = offset + answer.items.length;
  return { items: answer.items, nextCursor: answer.items.length > 0 && next < answer.groups ? String(next) : null };
}

/** An RFC 3339 time as a `datetime-local` input's value, in the browser's zone. */
function localInput(iso: string | null): string {
  if (!iso) return '';
  const date = new Date(iso);
  return new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

/**
 * /console/alerts/waf/discover/{space_id}: WAF events grouped by client IP, rule, path or country over a range, with
 * counts and sparklines, to spot attacks and false positives; each group links to its events, to a new alert rule,
 * and to the remedies it suggests (block the IP, exclude the rule on a path), previewed before they apply.
 */
function DiscoverScreen() {
  const spaceId = useStore($spaceId);
  const space = useApi($space);
  const firewalls = useApi($firewalls);
  const discover = useApi($discover);
  const shown = useLastData(discover.loaded);
  // The groups past the first page, by "Show more groups"; a new search starts again from its first page.
  const groups = usePagedList(
    shown ? JSON.stringify(shown.search) : '',
    shown ? groupPage(shown.answer, 0) : undefined,
    async (cursor) => {
      if (!shown || !spaceId) return { items: [], nextCursor: null };
      return groupPage(await loadDiscoverPage(spaceId, shown.search, Number(cursor)), Number(cursor));
    },
  );
  const query = useQueryDraft();
  const [custom, setCustom] = useState<{ from: string; to: string } | null>(null);
  const [remedy, setRemedy] = useState<{ draft: RemedyDraft; key: number } | null>(null);
  const [remedyOpen, setRemedyOpen] = useState(false);
  const opener = useRef<HTMLElement | null>(null);

  // The view is in the URL, read after hydration (the pre-rendered shell has none); searching it keys the store.
  const [view, changeUrl] = useUrlView(readDiscoverView, writeDiscoverView, {
    onRead: (initial) => {
      query.setDraft(initial.q);
      if (initial.range === null || !PRESETS.includes(initial.range)) {
        const range = absoluteRange(initial, Date.now());
        setCustom({ from: localInput(range.from), to: localInput(range.to) });
      }
      $discoverSearch.set(searchOf(initial, Date.now()));
    },
  });
  useEffect(() => () => $discoverSearch.set(undefined), []);

  const change = useCallback(
    (next: DiscoverView) => {
      changeUrl(next);
      $discoverSearch.set(searchOf(next, Date.now()));
    },
    [changeUrl],
  );

  const closeRemedy = useCallback(() => setRemedyOpen(false), []);

  // The role only narrows what is offered, so the page does not wait for the space; a space that fails stops it.
  const spaceFailed = space.loaded.state === 'error' ? space.loaded : undefined;
  return (
    <Loaded
      spaceId={spaceId}
      view={view}
      retry={space.retry}
      loaded={spaceFailed}
      loading={<p role="status">Loading WAF discover…</p>}
    >
      {(_none, view, spaceId) => {
        const role = space.loaded.state === 'ready' ? space.loaded.data.role : 'viewer';
        const firewallList = firewalls.loaded.state === 'ready' ? firewalls.loaded.data.items : [];
        const failed = discover.loaded.state === 'error' ? discover.loaded.error : null;
        const rangeValue = !custom && view.range && PRESETS.includes(view.range) ? view.range : 'custom';

        // Every control searches what the bar shows, typed or searched.
        const apply = (next: Partial<DiscoverView>): void => change({ ...view, q: query.applied(view.q), ...next });
        const submitCustom = (event: FormEvent<HTMLFormElement>): void => {
          event.preventDefault();
          if (!custom) return;
          const from = Date.parse(custom.from);
          const to = Date.parse(custom.to);
          if (Number.isNaN(from) || Number.isNaN(to) || from >= to) return;
          apply({ range: null, from: new Date(from).toISOString(), to: new Date(to).toISOString() });
        };
        const customProblem =
          custom?.from && custom.to && Date.parse(custom.from) >= Date.parse(custom.to)
            ? 'The start of the range must be before its end.'
            : null;

        return (
          <div className="sg-waf">
            <section className="card panel" aria-labelledby="sg-waf-heading">
              <h2 id="sg-waf-heading">WAF discover</h2>
              <p className="muted">
                Firewall events grouped to spot attacks and false positives. Open a group’s events, make an alert rule
                from it, block an address or exclude a rule on a path; each change is shown before it is made.
              </p>
              <QueryBar
                query={query}
                id="sg-waf-query"
                label="Search WAF events"
                placeholder="action:blocked -country:FR"
                hint="WAF events are those with a rule id or a firewall; the query narrows them (the event log’s language)."
                onSearch={(q) => change({ ...view, q })}
              >
                <div className="field">
                  <label htmlFor="sg-waf-group">Group by</label>
                  <select
                    id="sg-waf-group"
                    className="input"
                    value={view.groupBy}
                    onChange={(event) => {
                      const groupBy = discoverGroups.find((group) => group === event.target.value);
                      if (groupBy) apply({ groupBy });
                    }}
                  >
                    {discoverGroups.map((group) => (
                      <option key={group} value={group}>
                        {groupLabels[group]}
                      </option>
                    ))}
                  </select>
                </div>
                <div className="field">
                  <label htmlFor="sg-waf-range">Time range</label>
                  <select
                    id="sg-waf-range"
                    className="input"
                    value={rangeValue}
                    onChange={(event) => {
                      const range = parseRange(event.target.value);
                      if (range) {
                        setCustom(null);
                        apply({ range, from: null, to: null });
                      } else {
                        const now = absoluteRange(view, Date.now());
                        setCustom({ from: localInput(now.from), to: localInput(now.to) });
                      }
                    }}
                  >
                    {PRESETS.map((key) => (
                      <option key={key} value={key}>
                        Last {key}
                      </option>
                    ))}
                    <option value="custom">Custom range</option>
                  </select>
                </div>
                <label className="sg-waf-bar__scope">
                  <input
                    type="checkbox"
                    checked={view.scope === 'all'}
                    onChange={(event) => apply({ scope: event.target.checked ? 'all' : 'waf' })}
                  />{' '}
                  Every event, not only WAF events
                </label>
              </QueryBar>
              {custom && (
                <form className="sg-query-bar__row sg-waf-range" aria-label="Custom range" onSubmit={submitCustom}>
                  <div className="field">
                    <label htmlFor="sg-waf-from">From</label>
                    <input
                      id="sg-waf-from"
                      className="input"
                      type="datetime-local"
                      value={custom.from}
                      aria-invalid={customProblem ? true : undefined}
                      aria-describedby={customProblem ? 'sg-waf-range-error' : undefined}
                      onChange={(event) => setCustom({ ...custom, from: event.target.value })}
                    />
                  </div>
                  <div className="field">
                    <label htmlFor="sg-waf-to">To</label>
                    <input
                      id="sg-waf-to"
                      className="input"
                      type="datetime-local"
                      value={custom.to}
                      onChange={(event) => setCustom({ ...custom, to: event.target.value })}
                    />
                  </div>
                  <button type="submit" className="button secondary" disabled={customProblem !== null}>
                    Apply range
                  </button>
                  {customProblem && (
                    <p id="sg-waf-range-error" className="field__error">
                      {customProblem}
                    </p>
                  )}
                </form>
              )}
            </section>
            {failed !== null && <Problem error={failed} onRetry={discover.retry} />}
            {!shown && failed === null && <p role="status">Grouping WAF events…</p>}
            {shown && (
              <section
                className="card panel"
                aria-labelledby="sg-waf-groups-heading"
                aria-busy={discover.loaded.state !== 'ready'}
              >
                <div className="row sg-sources-head">
                  <h2 id="sg-waf-groups-heading">
                    {shown.answer.total.toLocaleString('en')} events in {shown.answer.groups.toLocaleString('en')}{' '}
                    groups
                  </h2>
                  <button type="button" className="button secondary" onClick={() => apply({})}>
                    Refresh
                  </button>
                </div>
                {shown.answer.items.length === 0 ? (
                  <Alert tone="info">
                    No {view.scope === 'waf' ? 'WAF ' : ''}events in this range
                    {shown.search.q ? ' match the query' : ''}. Run a firewall’s connector or send events with rule ids
                    to a log source, or widen the time range.
                  </Alert>
                ) : (
                  <DiscoverTable
                    spaceId={spaceId}
                    answer={shown.answer}
                    items={groups.items}
                    view={{ q: shown.search.q, range: null, from: shown.search.from, to: shown.search.to }}
                    sort={shown.search.sort}
                    onSort={(sort) => apply({ sort })}
                    onRemedy={(draftRemedy, button) => {
                      opener.current = button;
                      setRemedy((now) => ({ draft: draftRemedy, key: (now?.key ?? 0) + 1 }));
                      setRemedyOpen(true);
                    }}
                  />
                )}
                {groups.items.length > 0 && groups.items.length < shown.answer.groups && (
                  <div className="row sg-waf-more">
                    <p className="muted" role="status">
                      {groups.items.length.toLocaleString('en')} of {shown.answer.groups.toLocaleString('en')} groups,
                      by the column marked ▾.
                    </p>
                    <LoadMoreButton
                      list={groups}
                      label="Show more groups"
                      loadingLabel="Loading groups…"
                      what="groups"
                    />
                  </div>
                )}
              </section>
            )}
            {remedy && (
              <LazyRemedyDialog
                key={remedy.key}
                spaceId={spaceId}
                firewalls={firewallList}
                remedy={remedy.draft}
                canApply={atLeast(role, 'admin')}
                open={remedyOpen}
                onClose={closeRemedy}
                returnFocus={opener}
              />
            )}
          </div>
        );
      }}
    </Loaded>
  );
}

export default withApp(DiscoverScreen);
