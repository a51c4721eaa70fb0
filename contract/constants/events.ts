/** The vocabulary of security events: plain values, no zod, for schemas, the query language, server and islands. */

/** What the firewall did with a request. */
export const eventActions = ['blocked', 'logged', 'allowed'] as const;
export type EventAction = (typeof eventActions)[number];

/** Severities, strongest first. */
export const severities = ['critical', 'high', 'medium', 'low', 'info'] as const;
export type Severity = (typeof severities)[number];

/** Rank of a severity: higher is worse, so `severity:>=high` means high or critical. */
export const severityRank: Readonly<Record<Severity, number>> = { critical: 5, high: 4, medium: 3, low: 2, info: 1 };

/** Formats every export (events, activity) offers. */
export const exportFormats = ['ndjson', 'csv'] as const;
export type ExportFormat = (typeof exportFormats)[number];

/** Most events and bytes one ingest request may carry. */
export const ingestLimits = { events: 10_000, bytes: 10 * 1024 * 1024 } as const;

/**
 * The query language's cost budget: what one event query may ask. Each limit bounds a kind of work done for
 * every event in the range; a query past one is refused with a message naming it.
 */
export const queryLimits = {
  /** Terms of any kind. */
  terms: 32,
  /** Alternatives joined by OR in one group. */
  orWidth: 16,
  /** `ip:` terms (each address is parsed and compared for every event). */
  ipTerms: 8,
  /** Free-text, `message:` and `ua:` terms (each a substring search of every event). */
  textTerms: 8,
  /** Characters of one free-text, `message:` or `ua:` value. */
  textLength: 200,
} as const;
export type QueryLimit = keyof typeof queryLimits;
