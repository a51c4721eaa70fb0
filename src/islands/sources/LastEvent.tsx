import { dateTime } from '../shared/format.ts';
import { relativeTime } from '../shared/relative-time.ts';

interface Props {
  readonly at: string | null;
  /** Current time in ms, from the screen so every row agrees. */
  readonly now: number;
}

/** When a source last received an event: relative and absolute, or "No events yet". */
export function LastEvent({ at, now }: Props) {
  if (!at) return <span className="muted">No events yet</span>;
  return (
    <span className="sg-when">
      <time dateTime={at}>{relativeTime(at, now)}</time>
      <span className="sg-when__abs">{dateTime(at)}</span>
    </span>
  );
}
