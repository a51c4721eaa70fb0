/**
 * Whether a version lies in an OSV `affected[]` entry, per the OSV schema's evaluation (docs/vulnerability-matching.md):
 * affected when the version is in the explicit `versions` list or inside one of the SEMVER or ECOSYSTEM ranges. In
 * a range the events are sorted by version (`introduced: "0"` first) and walked in order: `introduced` at or below
 * the version opens, `fixed` at or below it closes, `last_affected` below it closes (it is inclusive); `limit`
 * events, when present, keep only the versions below one of them (`*` is infinity). GIT ranges are not evaluated.
 *
 * Events whose version the range's order cannot read are left out of the range; an installed version that order
 * cannot read matches no range, only the explicit list.
 */
import type { Ecosystem } from '../../../../contract/constants/vulns.ts';
import { compareKeys, tryVersionKey, type VersionKey, type VersionScheme } from './versions.ts';

export type OsvEvent = { introduced: string } | { fixed: string } | { last_affected: string } | { limit: string };
export type OsvRange = { type: string; repo?: string; events: OsvEvent[] };
export type AffectedEntry = { ecosystem: Ecosystem; ranges: OsvRange[]; versions: string[] };

type EventKind = 'introduced' | 'fixed' | 'last_affected';
/** One event with its parsed version; `key` null only for `introduced: "0"` (before everything). */
type CompiledEvent = { kind: EventKind; text: string; key: VersionKey | null };
type CompiledRange = {
  scheme: VersionScheme;
  events: CompiledEvent[];
  /** The `limit` versions; null when the range has none (an implicit `*`); `*` itself is not kept, see `unlimited`. */
  limits: VersionKey[] | null;
  unlimited: boolean;
};
type CompiledEntry = { ecosystem: Ecosystem; ranges: CompiledRange[]; versions: string[] };

const KIND_ORDER: Record<EventKind, number> = { introduced: 0, fixed: 1, last_affected: 1 };

/** The event's kind and version, or null for a malformed event (not one string field of the four). */
function readEvent(event: unknown): { kind: EventKind | 'limit'; text: string } | null {
  if (!event || typeof event !== 'object') return null;
  for (const kind of ['introduced', 'fixed', 'last_affected', 'limit'] as const) {
    const text = (event as Record<string, unknown>)[kind];
    if (typeof text === 'string') return { kind, text };
  }
  return null;
}

function compileRange(ecosystem: Ecosystem, range: OsvRange): CompiledRange | null {
  if (!range || typeof range !== 'object' || !Array.isArray(range.events)) return null;
  const scheme: VersionScheme | null =
    range.type === 'SEMVER' ? 'SEMVER' : range.type === 'ECOSYSTEM' ? ecosystem : null;
  if (!scheme) return null;
  const events: CompiledEvent[] = [];
  let limits: VersionKey[] | null = null;
  let unlimited = false;
  for (const raw of range.events) {
    const event = readEvent(raw);
    if (!event) continue;
    if (event.kind === 'limit') {
      limits ??= [];
      if (event.text.includes('*')) unlimited = true;
      else {
        const key = tryVersionKey(scheme, event.text);
        if (key) limits.push(key);
      }
      continue;
    }
    if (event.kind === 'introduced' && event.text.trim() === '0') {
      events.push({ kind: 'introduced', text: event.text, key: null });
      continue;
    }
    const key = tryVersionKey(scheme, event.text);
    if (key) events.push({ kind: event.kind, text: event.text, key });
  }
  events.sort((a, b) => {
    if (a.key === null || b.key === null) return a.key === b.key ? 0 : a.key === null ? -1 : 1;
    return compareKeys(a.key, b.key) || KIND_ORDER[a.kind] - KIND_ORDER[b.kind];
  });
  // Limits none of which could be read are left out like other events: the implicit `*` again.
  if (limits?.length === 0 && !unlimited) limits = null;
  return { scheme, events, limits, unlimited };
}

const compiled = new WeakMap<AffectedEntry, CompiledEntry>();

/** The entry with its ranges parsed and sorted once (kept per entry object). */
function compile(entry: AffectedEntry): CompiledEntry {
  const known = compiled.get(entry);
  if (known) return known;
  const ranges: CompiledRange[] = [];
  for (const range of Array.isArray(entry.ranges) ? entry.ranges : []) {
    const one = compileRange(entry.ecosystem, range);
    if (one && one.events.length > 0) ranges.push(one);
  }
  const result = { ecosystem: entry.ecosystem, ranges, versions: Array.isArray(entry.versions) ? entry.versions : [] };
  compiled.set(entry, result);
  return result;
}

function beforeLimits(range: CompiledRange, version: VersionKey): boolean {
  if (range.limits === null || range.unlimited) return true;
  return range.limits.some((limit) => compareKeys(version, limit) < 0);
}

/** The OSV evaluation of one range for an installed version already parsed in the range's order. */
function inRange(range: CompiledRange, version: VersionKey): boolean {
  if (!beforeLimits(range, version)) return false;
  let affected = false;
  for (const event of range.events) {
    if (event.kind === 'introduced') {
      if (event.key === null || compareKeys(version, event.key) >= 0) affected = true;
    } else if (event.key && event.kind === 'fixed') {
      if (compareKeys(version, event.key) >= 0) affected = false;
    } else if (event.key && compareKeys(version, event.key) > 0) affected = false;
  }
  return affected;
}

/** Whether the explicit list names the version: the same string, or the same version in the ecosystem's order. */
function listed(entry: CompiledEntry, version: string): boolean {
  if (entry.versions.length === 0) return false;
  const mine = tryVersionKey(entry.ecosystem, version);
  const trimmed = version.trim();
  return entry.versions.some((listedVersion) => {
    if (listedVersion.trim() === trimmed) return true;
    if (!mine) return false;
    const theirs = tryVersionKey(entry.ecosystem, listedVersion);
    return theirs !== null && compareKeys(mine, theirs) === 0;
  });
}

/**
 * The installed version in the range's order. In a SEMVER range an npm or Go version is read as its ecosystem reads
 * it (`=1.2.3`, Go's `v1.2`), which is SemVer too.
 */
function installedKey(range: CompiledRange, ecosystem: Ecosystem, version: string): VersionKey | null {
  if (range.scheme === 'SEMVER' && (ecosystem === 'npm' || ecosystem === 'Go')) {
    const own = tryVersionKey(ecosystem, version);
    return own?.scheme === ecosystem ? { scheme: 'SEMVER', text: own.text, semver: own.semver } : null;
  }
  return tryVersionKey(range.scheme, version);
}

/** The ranges of the entry that hold the version, each with the version in its order. */
function affectingRanges(entry: CompiledEntry, version: string): { range: CompiledRange; installed: VersionKey }[] {
  const hits: { range: CompiledRange; installed: VersionKey }[] = [];
  for (const range of entry.ranges) {
    const installed = installedKey(range, entry.ecosystem, version);
    if (installed && inRange(range, installed)) hits.push({ range, installed });
  }
  return hits;
}

/** Whether `version` is affected by the entry: in one of its SEMVER or ECOSYSTEM ranges, or in its versions list. */
export function isAffected(entry: AffectedEntry, version: string): boolean {
  const one = compile(entry);
  return affectingRanges(one, version).length > 0 || listed(one, version);
}

/**
 * The smallest `fixed` version above `version` among the ranges (of these entries) that hold it, in the range's
 * order (the ecosystem's, or SemVer's); null when none does: fixed only by `last_affected`, listed only in `versions`,
 * or not affected.
 */
export function fixedIn(entries: AffectedEntry[], version: string): string | null {
  let best: { text: string; key: VersionKey } | null = null;
  for (const entry of entries) {
    const one = compile(entry);
    for (const { range, installed } of affectingRanges(one, version)) {
      for (const event of range.events) {
        if (event.kind !== 'fixed' || !event.key || compareKeys(event.key, installed) <= 0) continue;
        const candidate = { text: event.text, key: event.key };
        if (!best || smaller(one.ecosystem, candidate, best)) best = candidate;
      }
    }
  }
  return best?.text ?? null;
}

/** `a` below `b`: in their common order, else in the ecosystem's when both read there, else not. */
function smaller(ecosystem: Ecosystem, a: { text: string; key: VersionKey }, b: { text: string; key: VersionKey }) {
  if (a.key.scheme === b.key.scheme) return compareKeys(a.key, b.key) < 0;
  const ak = tryVersionKey(ecosystem, a.text);
  const bk = tryVersionKey(ecosystem, b.text);
  return ak !== null && bk !== null && compareKeys(ak, bk) < 0;
}
