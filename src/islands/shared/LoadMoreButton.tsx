import { errorMessage } from '../../lib/api.ts';
import { Alert } from './Alert.tsx';
import type { PagedList } from './use-paged-list.ts';

interface Props {
  readonly list: PagedList<unknown>;
  /** What the button asks for ("Show more groups"), and what it says while the page comes ("Loading groups…"). */
  readonly label: string;
  readonly loadingLabel: string;
  /** What the list holds, for the error ("saved searches"). */
  readonly what: string;
}

/** A paged list's "Show more": pressed once while the page comes; a page that fails says why and can be asked again. */
export function LoadMoreButton({ list, label, loadingLabel, what }: Props) {
  return (
    <>
      {list.nextCursor && (
        <button type="button" className="button secondary" disabled={list.loading} onClick={() => void list.loadMore()}>
          {list.loading ? loadingLabel : label}
        </button>
      )}
      {list.error !== null && (
        <Alert tone="error">
          Could not load more {what}: {errorMessage(list.error)}
        </Alert>
      )}
    </>
  );
}
