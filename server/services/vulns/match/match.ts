/**
 * Matching an inventory against the library, in memory (docs/vulnerability-matching.md): a component meets the
 * affected entries of its package key (`ecosystem:normalised name`), then its version is evaluated against each
 * entry (`isAffected`). One match per component and record, however many of the record's entries hold it, with the
 * smallest fixing version above the installed one among them.
 */
import type { Ecosystem } from '../../../../contract/constants/vulns.ts';
import { type AffectedEntry, fixedIn, isAffected, type OsvRange } from '../ecosystems/affected.ts';

/**
 * A component to match: its key within the asset (`componentKey`), package key and installed version, and the
 * ecosystem release it comes from where one is known (Debian `12`, from its purl's `distro`).
 */
export type MatchComponent = {
  key: string;
  ecosystem: Ecosystem;
  packageKey: string;
  version: string;
  release?: string | null;
};
/** One affected entry of a library record (a `vuln_affected` row). */
export type MatchRecord = {
  refId: string;
  seq: number;
  ecosystem: Ecosystem;
  /** The release an entry is about (`Debian:12` → `12`); null or absent for the whole ecosystem. */
  release?: string | null;
  packageKey: string;
  ranges: OsvRange[];
  versions: string[];
};

/** Whether an entry applies to a component's release: one of them unknown, or the same. */
const sameRelease = (entry: MatchRecord, component: MatchComponent) =>
  !entry.release || !component.release || entry.release === component.release;
export type Match = { componentKey: string; refId: string; fixedIn: string | null };

/** The records by package key, each package's entries grouped by record in the order they came. */
function byPackage(records: readonly MatchRecord[]): Map<string, Map<string, MatchRecord[]>> {
  const index = new Map<string, Map<string, MatchRecord[]>>();
  for (const record of records) {
    let refs = index.get(record.packageKey);
    if (!refs) {
      refs = new Map();
      index.set(record.packageKey, refs);
    }
    const entries = refs.get(record.refId);
    if (entries) entries.push(record);
    else refs.set(record.refId, [record]);
  }
  return index;
}

/**
 * Every (component, record) pair where the component's version is affected by one of the record's entries for its
 * package. The entries are parsed once per record object (parsed versions are memoised), so a long inventory costs
 * one evaluation per component and entry of its package.
 */
export function matchComponents(components: readonly MatchComponent[], records: readonly MatchRecord[]): Match[] {
  const index = byPackage(records);
  const matches: Match[] = [];
  const seen = new Set<string>();
  for (const component of components) {
    const refs = index.get(component.packageKey);
    if (!refs) continue;
    for (const [refId, entries] of refs) {
      const hits: AffectedEntry[] = entries.filter(
        (entry) =>
          entry.ecosystem === component.ecosystem &&
          sameRelease(entry, component) &&
          isAffected(entry, component.version),
      );
      if (hits.length === 0) continue;
      const pair = `${component.key}\u0000${refId}`;
      if (seen.has(pair)) continue;
      seen.add(pair);
      matches.push({ componentKey: component.key, refId, fixedIn: fixedIn(hits, component.version) });
    }
  }
  return matches;
}
