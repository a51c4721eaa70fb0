import type { CSSProperties, ReactNode } from 'react';
import type { Severity } from '../../../contract/constants/events.ts';
import type { VulnSeverity } from '../../../contract/constants/vulns.ts';
import './badges.css';
import { SEVERITY_COLOURS } from './palette.ts';

interface Props {
  /** An event's, alert's or rule's severity, or a finding's. */
  readonly severity: Severity | VulnSeverity;
  /** What the badge says; the severity's own word by default. */
  readonly children?: ReactNode;
  /** A list item in a list of counts; a span by default. */
  readonly as?: 'span' | 'li';
}

/** A severity as a coloured badge whose text says it (colour is never the only cue): the one rendering of a severity. */
export function SeverityBadge({ severity, children, as: Element = 'span' }: Props) {
  // The palette's colours of both modes; badges.css picks the one of the page's mode.
  const style = {
    '--sev-light': SEVERITY_COLOURS.light[severity],
    '--sev-dark': SEVERITY_COLOURS.dark[severity],
  } as CSSProperties;
  return (
    <Element className={`sg-sev sg-sev--${severity}`} style={style}>
      {children ?? severity}
    </Element>
  );
}
