/**
 * The overview's summary strip: a space's numbers over a time range and over the period of equal length
 * just before it, so each can say how it changed. The definitions are in docs/overview.md.
 */
import { z } from 'zod';
import { Timestamp } from './common.ts';
import { EventFilters } from './event-search.ts';

/** The range of the summary: `from` and `to` (default: the last 24 hours); no query, the strip counts everything. */
export const SummaryQuery = EventFilters.pick({ from: true, to: true });

const Count = z.number().int().min(0);

/** One number over the range and over the previous period. */
const Compared = z.object({ current: Count, previous: Count });

/** A share over the range and over the previous period: null where there was nothing to share (no requests). */
const ComparedRate = z.object({
  current: z.number().min(0).max(1).nullable(),
  previous: z.number().min(0).max(1).nullable(),
});

/** A state that holds now (open alerts, open critical findings) and how many of them began in each period. */
const NowAndNew = z.object({ now: Count, new: Compared });

export const OverviewSummary = z
  .object({
    /** The range, `to` inclusive, as the event log reads it. */
    from: Timestamp,
    to: Timestamp,
    /** The period of equal length just before: from `previousFrom` up to (not including) `from`. */
    previousFrom: Timestamp,
    /** Events received (every action). */
    requests: Compared,
    /** Events with action `blocked`. */
    blocked: Compared,
    /** Blocked out of requests (0 to 1). */
    blockRate: ComparedRate,
    /** Distinct client addresses among the events. */
    clientIps: Compared,
    /** Alerts open now; `new`: alerts first seen in each period, whatever their status now. */
    openAlerts: NowAndNew,
    /** Critical findings open now; `new`: critical findings first found in each period, whatever their status now. */
    criticalFindings: NowAndNew,
  })
  .meta({ id: 'OverviewSummary' });
export type OverviewSummary = z.infer<typeof OverviewSummary>;
