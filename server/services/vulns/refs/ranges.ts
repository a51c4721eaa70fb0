/** OSV ranges in words, as the library's detail shows them: "from 2.0.0 before 2.3.1", "every version before 1.4.2". */
import type { OsvRange } from '../../../../contract/vuln-refs.ts';

const isGit = (range: OsvRange) => range.type === 'GIT';

/** A version or commit as the words name it (commits shortened to 12 characters). */
function label(range: OsvRange, version: string): string {
  return isGit(range) ? `commit ${version.slice(0, 12)}` : version;
}

/**
 * Each affected interval of one range: its events read in order, an `introduced` opening an interval and the next
 * `fixed` (exclusive) or `last_affected` (inclusive) closing it; `introduced: "0"` is every version from the first.
 * A `limit` bounds where the ecosystem's versions were searched.
 */
export function rangeInWords(range: OsvRange): string[] {
  const out: string[] = [];
  let open: string | null = null;
  const start = (from: string) => (from === '0' ? 'every version' : `from ${label(range, from)}`);
  for (const event of range.events) {
    if (event.introduced !== undefined) {
      if (open !== null) out.push(`${start(open)} on`);
      open = event.introduced;
    } else if (event.fixed !== undefined) {
      out.push(`${start(open ?? '0')} before ${label(range, event.fixed)}`);
      open = null;
    } else if (event.last_affected !== undefined) {
      out.push(`${start(open ?? '0')} up to and including ${label(range, event.last_affected)}`);
      open = null;
    } else if (event.limit !== undefined) {
      out.push(`(versions searched up to ${label(range, event.limit)})`);
    }
  }
  if (open !== null) out.push(open === '0' ? 'every version' : `${start(open)} on`);
  return out;
}
