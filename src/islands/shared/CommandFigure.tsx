import { type ReactNode, useId } from 'react';
import { CopyButton } from './CopyButton.tsx';

interface Props {
  /** The figure's caption, e.g. "Send events with curl". */
  readonly caption: string;
  /** The exact command line. */
  readonly line: string;
  /** What to know before running it. */
  readonly children: ReactNode;
}

/** A command to run (a curl line, the connector), shown whole with a copy button and a note. */
export function CommandFigure({ caption, line, children }: Props) {
  const captionId = useId();
  return (
    <figure className="sg-command" aria-labelledby={captionId}>
      <figcaption id={captionId}>{caption}</figcaption>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a long command scrolls sideways and must be reachable by keyboard */}
      <pre className="sg-command__line" tabIndex={0}>
        <code>{line}</code>
      </pre>
      <div className="row">
        <CopyButton text={line} label="Copy command" />
      </div>
      <p className="muted sg-command__note">{children}</p>
    </figure>
  );
}
