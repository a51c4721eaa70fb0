import { useStore } from '@nanostores/react';
import { useCallback, useEffect, useState } from 'react';
import { atLeast } from '../../../contract/roles.ts';
import { invalidateApi } from '../../stores/fetcher.ts';
import { $spaceId } from '../../stores/route.ts';
import { $space } from '../../stores/space.ts';
import { $vulnImports, $vulnRef, $vulnRefId, $vulnRefQuery, $vulnRefs } from '../../stores/vuln-refs.ts';
import { withApp } from '../app/with-app.tsx';
import { Loaded } from '../shared/Loaded.tsx';
import { useApi } from '../shared/use-api.ts';
import { useUrlView } from '../shared/use-url-view.ts';
import { ImportPanel } from './refs/ImportPanel.tsx';
import { RefDetail } from './refs/RefDetail.tsx';
import { RefFilters } from './refs/RefFilters.tsx';
import { RefsTable } from './refs/RefsTable.tsx';
import { listQuery, type RefsView, readRefsView, writeRefsView } from './refs/refs-url.ts';
import '../shared/panels.css';
import '../shared/console-screens.css';
import './vulnerabilities.css';
import './refs/refs.css';

/** The list: its page of records, paging by cursor (a stack of the cursors before, for Previous). */
function RefsList({ view, onOpen }: { readonly view: RefsView; readonly onOpen: (id: string) => void }) {
  const list = useApi($vulnRefs);
  const [cursors, setCursors] = useState<string[]>([]);
  const filtersKey = listQuery(view.filters);
  // New filters start at the first page.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the filters' query is the trigger
  useEffect(() => setCursors([]), [filtersKey]);
  useEffect(() => {
    $vulnRefQuery.set(listQuery(view.filters, cursors.at(-1) ?? null));
  }, [view.filters, cursors]);
  return (
    <Loaded loaded={list.loaded} retry={list.retry} loading="Loading records…">
      {({ items, nextCursor }) => {
        const filtered = filtersKey !== '';
        return (
          <>
            {items.length === 0 ? (
              <p className="sg-empty">
                {filtered
                  ? 'No record matches these filters. Clear them, or search for another id, alias or package.'
                  : 'The library is empty. An admin imports OSV records (a .json file or a zip such as OSV’s all.zip) above.'}
              </p>
            ) : (
              <RefsTable items={items} onOpen={onOpen} hrefOf={(id) => writeRefsView({ ...view, id }) || '?'} />
            )}
            <nav className="row sg-vr-paging" aria-label="Pages of records">
              <button
                type="button"
                className="button secondary"
                disabled={cursors.length === 0}
                onClick={() => setCursors(cursors.slice(0, -1))}
              >
                Previous page
              </button>
              <button
                type="button"
                className="button secondary"
                disabled={!nextCursor}
                onClick={() => nextCursor && setCursors([...cursors, nextCursor])}
              >
                Next page
              </button>
            </nav>
          </>
        );
      }}
    </Loaded>
  );
}

function Detail({ onClose }: { readonly onClose: () => void }) {
  const record = useApi($vulnRef);
  return (
    <Loaded
      loaded={record.loaded}
      retry={record.retry}
      loading="Loading the record…"
      notFound="The library has no such record."
    >
      {(data) => <RefDetail record={data} onClose={onClose} />}
    </Loaded>
  );
}

/**
 * /console/vulnerabilities/refs/{space_id}: the space's OSV reference library. Search and filters live in the URL,
 * `?id=` opens a record; admins import JSON or zip files and follow the import's progress.
 */
export function RefsScreen() {
  const spaceId = useStore($spaceId);
  const space = useApi($space);
  const imports = useApi($vulnImports);
  // Search and filters are in the URL, and so is the open record: Back closes it.
  const [view, changeUrl] = useUrlView(readRefsView, writeRefsView, {
    popstate: true,
    onRead: (read) => $vulnRefId.set(read.id),
  });
  useEffect(
    () => () => {
      $vulnRefId.set(null);
      $vulnRefQuery.set(undefined);
    },
    [],
  );

  const change = useCallback(
    (next: RefsView, push = false) => {
      changeUrl(next, { push });
      $vulnRefId.set(next.id);
    },
    [changeUrl],
  );

  const body = (
    <Loaded spaceId={spaceId} loaded={space.loaded} retry={space.retry} loading="Loading the library…" view={view}>
      {(data, view) => {
        const { id, role } = data;
        const canImport = atLeast(role, 'admin');
        return (
          <>
            {canImport && (
              <ImportPanel spaceId={id} imports={imports.loaded.state === 'ready' ? imports.loaded.data.items : []} />
            )}
            {view.id ? (
              <Detail onClose={() => change({ ...view, id: null }, true)} />
            ) : (
              <>
                <RefFilters filters={view.filters} onChange={(filters) => change({ filters, id: null })} />
                <RefsList view={view} onOpen={(ref) => change({ ...view, id: ref }, true)} />
              </>
            )}
          </>
        );
      }}
    </Loaded>
  );

  return (
    <section className="card panel sg-sources sg-vr" aria-labelledby="sg-vr-heading">
      <div className="row sg-vu-head">
        <h2 id="sg-vr-heading">Vulnerability library</h2>
        <button type="button" className="button secondary" onClick={() => invalidateApi($vulnRefs, $vulnImports)}>
          Refresh
        </button>
      </div>
      {body}
    </section>
  );
}

export default withApp(RefsScreen);
