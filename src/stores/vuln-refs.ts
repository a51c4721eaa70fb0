/** The vulnerability reference library of the URL's space: the searched list, one record, the imports. */
import { atom } from 'nanostores';
import type { VulnImport, VulnImportList, VulnRefDetail, VulnRefList } from '../../contract/vuln-refs.ts';
import { call, client } from '../lib/api.ts';
import { apiStore } from './fetcher.ts';
import { $spaceId } from './route.ts';

const refs = client.spaces[':spaceId']['vuln-refs'];

/** The list's request query (`q=…&severity=high&cursor=…`), set by the library screen from its URL and paging. */
export const $vulnRefQuery = atom<string | undefined>(undefined);

/** One page of records for the list query. */
export const $vulnRefs = apiStore<VulnRefList>('vuln-refs', [$spaceId, $vulnRefQuery], (spaceId, query) =>
  call(refs.$get({ param: { spaceId }, query: Object.fromEntries(new URLSearchParams(query)) })),
);

/** The record the screen shows (`?id=`), or null. */
export const $vulnRefId = atom<string | null>(null);

/** The record of `$vulnRefId`, whole: severities scored, ranges in words. */
export const $vulnRef = apiStore<VulnRefDetail>('vuln-ref', [$spaceId, $vulnRefId], (spaceId, id) =>
  // OSV ids hold `:` and other characters a path segment must escape; the client puts params in as given.
  call(refs[':id'].$get({ param: { spaceId, id: encodeURIComponent(id) } })),
);

/** The space's newest imports, running ones included (the screen follows those after a reload). */
export const $vulnImports = apiStore<VulnImportList>('vuln-imports', [$spaceId], (spaceId) =>
  call(refs.imports.$get({ param: { spaceId } })),
);

/** One import's progress, asked directly while the screen polls it. */
export function loadImport(spaceId: string, id: string): Promise<VulnImport> {
  return call(refs.imports[':id'].$get({ param: { spaceId, id } }));
}

/** Sends a file (JSON or zip) as an import; answers the finished import (small JSON) or the queued one. */
export function uploadImport(spaceId: string, file: File): Promise<VulnImport> {
  const zip = /\.zip$/i.test(file.name) || file.type.includes('zip');
  return call(
    refs.$post(
      { param: { spaceId }, query: { fileName: file.name } },
      { headers: { 'content-type': zip ? 'application/zip' : 'application/json' }, init: { body: file } },
    ),
  );
}

/** Whether an import is still going (the screen polls it then). */
export const isRunning = (item: Pick<VulnImport, 'status'>) => item.status === 'queued' || item.status === 'running';
