/** The syntax tree of an event query, shared by the parser, the in-memory matcher and the SQL compiler. */

import { type EventAction, eventActions, type Severity, severities as strongestFirst } from '../constants/events.ts';

export type { Severity } from '../constants/events.ts';
export type Action = EventAction;

/** Severities, weakest first: `severity:>=high` means high or critical. */
export const severities: readonly Severity[] = [...strongestFirst].reverse();

/** What the firewall did with a request. */
export const actions = eventActions;

export const compareOps = ['=', '>', '>=', '<', '<='] as const;
export type CompareOp = (typeof compareOps)[number];

/** Fields compared for equality, ignoring case. */
export type EqualsField = 'action' | 'country' | 'method' | 'host';
/** Fields searched for a case-insensitive substring. */
export type ContainsField = 'message' | 'userAgent';

export type QueryNode =
  /** All children match; no children matches every event (the empty query). */
  | { kind: 'and'; children: QueryNode[] }
  | { kind: 'or'; children: QueryNode[] }
  | { kind: 'not'; child: QueryNode }
  /** Free text: a case-insensitive substring of message, path, host or user agent. */
  | { kind: 'text'; value: string }
  /** `status` compared with a number; for `rule`, some rule id of the event compares so. */
  | { kind: 'compare'; field: 'status' | 'rule'; op: CompareOp; value: number }
  /** Inclusive range `from..to`; for `rule`, some rule id lies in it. */
  | { kind: 'range'; field: 'status' | 'rule'; from: number; to: number }
  /** The severity is one of these (comparisons and ranges are expanded by the parser). */
  | { kind: 'severity'; levels: Severity[] }
  /** The ip lies in the network `cidr` (canonical, host bits cleared; a single address is a /32 or /128). */
  | { kind: 'ip'; cidr: string }
  /** `value` is lower case. */
  | { kind: 'equals'; field: EqualsField; value: string }
  | { kind: 'contains'; field: ContainsField; value: string }
  /** Exact path, or a path starting with `value` when `prefix`. */
  | { kind: 'path'; value: string; prefix: boolean }
  /** The tags contain `value`, or a tag starting with `value` when `prefix`. */
  | { kind: 'tag'; value: string; prefix: boolean }
  /** The event was seen by the firewall with this id (a UUID, lower case). */
  | { kind: 'firewall'; id: string };
