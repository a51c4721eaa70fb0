import { dateTime } from '../shared/format.ts';
import { relativeTime } from '../shared/relative-time.ts';

/** A time as "5 minutes ago", the exact date and time in its tooltip. */
export function When({ iso, now }: { readonly iso: string; readonly now: number }) {
  return (
    <time dateTime={iso} title={dateTime(iso)}>
      {relativeTime(iso, now)}
    </time>
  );
}
