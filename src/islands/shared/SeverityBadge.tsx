import type { ReactNode } from 'react';
import type { Severity } from '../../../contract/constants/events.ts';
import type { VulnSeverity } from '../../../contract/constants/vulns.ts';
import './badges.css';

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
  return <Element className={`sg-sev sg-sev--${severity}`}>{children ?? severity}</Element>;
}
