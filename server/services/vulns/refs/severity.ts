/**
 * Severity of an OSV record: CVSS v3.x and v4 vectors scored with ae-cvss-calculator (score, FIRST's rating bands,
 * the vector's parts as labelled metrics); where there is no vector, the ecosystem's own word (GitHub's
 * `database_specific.severity`, Ubuntu's priority, Debian's urgency).
 */
import cvss from 'ae-cvss-calculator';
import { type VulnSeverity, vulnSeverities } from '../../../../contract/constants/vulns.ts';
import type { OsvRecord, ScoredSeverity } from '../../../../contract/vuln-refs.ts';

const { Cvss3P0, Cvss3P1, Cvss4P0 } = cvss;

/** FIRST's qualitative rating of a CVSS v3/v4 score: 0 none, 0.1–3.9 low, 4–6.9 medium, 7–8.9 high, 9–10 critical. */
export function ratingOf(score: number): VulnSeverity {
  if (score >= 9) return 'critical';
  if (score >= 7) return 'high';
  if (score >= 4) return 'medium';
  if (score > 0) return 'low';
  return 'none';
}

type Vector = InstanceType<typeof Cvss3P1> | InstanceType<typeof Cvss3P0> | InstanceType<typeof Cvss4P0>;

function vectorOf(text: string): { version: string; vector: Vector } | null {
  if (text.startsWith('CVSS:4.0/')) return { version: '4.0', vector: new Cvss4P0(text) };
  if (text.startsWith('CVSS:3.1/')) return { version: '3.1', vector: new Cvss3P1(text) };
  if (text.startsWith('CVSS:3.0/')) return { version: '3.0', vector: new Cvss3P0(text) };
  return null;
}

/** One severity entry of a record, scored when it is a complete CVSS v3.x or v4 base vector. */
export function scoreSeverity(entry: { type: string; score: string }): ScoredSeverity {
  const vectorText = entry.score.trim();
  const base = { type: entry.type, vector: vectorText, version: null, score: null, metrics: [] };
  if (entry.type !== 'CVSS_V3' && entry.type !== 'CVSS_V4') {
    const word = wordRating(vectorText);
    return {
      ...base,
      rating: word ?? 'unknown',
      problem: word ? null : `${entry.type} is not scored: Spaceguard scores CVSS v3.x and v4 vectors.`,
    };
  }
  let parsed: ReturnType<typeof vectorOf>;
  try {
    parsed = vectorOf(vectorText);
  } catch (error) {
    return { ...base, rating: 'unknown', problem: `Not a valid CVSS vector: ${(error as Error).message}.` };
  }
  if (!parsed) return { ...base, rating: 'unknown', problem: 'Not a CVSS 3.0, 3.1 or 4.0 vector.' };
  const { version, vector } = parsed;
  const metrics = metricsOf(vector, vectorText);
  if (!vector.isBaseFullyDefined()) {
    return { ...base, version, metrics, rating: 'unknown', problem: 'The vector lacks base metrics.' };
  }
  const score = vector.calculateScores().overall;
  return { ...base, version, metrics, score, rating: ratingOf(score), problem: null };
}

/** The parts the vector states, in its order, with the calculator's names for metric and value. */
function metricsOf(vector: Vector, text: string): ScoredSeverity['metrics'] {
  return text
    .split('/')
    .slice(1)
    .flatMap((part) => {
      const [key = '', value = ''] = part.split(':');
      const component = vector.findComponent(key);
      const chosen = vector.getComponentByStringOpt(key);
      if (!component || !chosen) return [];
      return [{ key, name: component.name, value, valueName: chosen.name }];
    });
}

const words: Record<string, VulnSeverity> = {
  critical: 'critical',
  high: 'high',
  important: 'high',
  moderate: 'medium',
  medium: 'medium',
  low: 'low',
  negligible: 'low',
  unimportant: 'low',
  none: 'none',
};

/** An ecosystem's own severity word (`HIGH`, `MODERATE`, Debian's `low**`), or null when it is none of them. */
export function wordRating(word: unknown): VulnSeverity | null {
  if (typeof word !== 'string') return null;
  return (
    words[
      word
        .trim()
        .toLowerCase()
        .replace(/[^a-z]/g, '')
    ] ?? null
  );
}

const order: readonly VulnSeverity[] = vulnSeverities.filter((s) => s !== 'unknown');

/** The ecosystem's word for a record: the database's, Ubuntu's, then the affected entries' (worst of them). */
function ecosystemRating(record: OsvRecord): VulnSeverity | null {
  const found: VulnSeverity[] = [];
  const push = (value: unknown) => {
    const rating = wordRating(value);
    if (rating) found.push(rating);
  };
  push(record.database_specific?.severity);
  for (const entry of record.severity ?? []) if (entry.type === 'Ubuntu') push(entry.score);
  for (const affected of record.affected ?? []) {
    push(affected.ecosystem_specific?.severity);
    push(affected.ecosystem_specific?.urgency);
    push(affected.database_specific?.severity);
  }
  return order.find((rating) => found.includes(rating)) ?? null;
}

export type RecordSeverity = {
  severity: VulnSeverity;
  score: number | null;
  source: 'cvss' | 'ecosystem' | 'none';
  severities: ScoredSeverity[];
};

/**
 * The record's severity: the newest CVSS version it scores (v4 before v3.1 before v3.0), from the record's own
 * entries or else the affected entries'; else the ecosystem's word; else `unknown`.
 */
export function recordSeverity(record: OsvRecord): RecordSeverity {
  const entries = [...(record.severity ?? []), ...(record.affected ?? []).flatMap((a) => a.severity ?? [])];
  const seen = new Set<string>();
  const severities = entries
    .filter((entry) => {
      const key = `${entry.type} ${entry.score}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .map(scoreSeverity);
  const scored = severities
    .filter((s) => s.score !== null && s.version !== null)
    .sort((a, b) => Number(b.version) - Number(a.version));
  const best = scored[0];
  if (best && best.score !== null) return { severity: best.rating, score: best.score, source: 'cvss', severities };
  const word = ecosystemRating(record);
  if (word) return { severity: word, score: null, source: 'ecosystem', severities };
  return { severity: 'unknown', score: null, source: 'none', severities };
}
