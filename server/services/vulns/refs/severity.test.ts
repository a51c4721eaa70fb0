/** Severity of OSV records: CVSS v3.x and v4 scored with their parts, FIRST's bands, the ecosystem's word otherwise. */
import { describe, expect, test } from 'vitest';
import type { OsvRecord } from '../../../../contract/vuln-refs.ts';
import { ratingOf, recordSeverity, scoreSeverity, wordRating } from './severity.ts';

const record = (fields: Partial<OsvRecord>): OsvRecord => ({ id: 'X-1', modified: '2024-01-01T00:00:00Z', ...fields });

describe('rating bands', () => {
  test.each([
    [0, 'none'],
    [0.1, 'low'],
    [3.9, 'low'],
    [4, 'medium'],
    [6.9, 'medium'],
    [7, 'high'],
    [8.9, 'high'],
    [9, 'critical'],
    [10, 'critical'],
  ] as const)('%s is %s', (score, rating) => expect(ratingOf(score)).toBe(rating));
});

describe('scoring one entry', () => {
  test('CVSS 3.1 with its parts in the vector’s order', () => {
    const scored = scoreSeverity({ type: 'CVSS_V3', score: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H' });
    expect(scored).toMatchObject({ version: '3.1', score: 9.8, rating: 'critical', problem: null });
    expect(scored.metrics.map((m) => `${m.key}=${m.valueName}`)).toEqual([
      'AV=Network',
      'AC=Low',
      'PR=None',
      'UI=None',
      'S=Unchanged',
      'C=High',
      'I=High',
      'A=High',
    ]);
  });

  test('CVSS 3.0 and 4.0', () => {
    expect(scoreSeverity({ type: 'CVSS_V3', score: 'CVSS:3.0/AV:N/AC:H/PR:N/UI:R/S:U/C:L/I:N/A:N' })).toMatchObject({
      version: '3.0',
      score: 3.1,
      rating: 'low',
    });
    const v4 = scoreSeverity({
      type: 'CVSS_V4',
      score: 'CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N',
    });
    expect(v4).toMatchObject({ version: '4.0', score: 9.3, rating: 'critical' });
    expect(v4.metrics).toHaveLength(11);
  });

  test('an incomplete or malformed vector is kept with the reason it was not scored', () => {
    expect(scoreSeverity({ type: 'CVSS_V3', score: 'CVSS:3.1/AV:N/AC:L' })).toMatchObject({
      score: null,
      rating: 'unknown',
      problem: 'The vector lacks base metrics.',
    });
    expect(scoreSeverity({ type: 'CVSS_V3', score: 'CVSS:3.1/AV:Q/AC:L' }).problem).toMatch(/^Not a valid CVSS vector/);
    expect(scoreSeverity({ type: 'CVSS_V3', score: 'AV:N/AC:L/Au:N/C:P/I:P/A:P' }).problem).toBe(
      'Not a CVSS 3.0, 3.1 or 4.0 vector.',
    );
    expect(scoreSeverity({ type: 'CVSS_V2', score: 'AV:N/AC:L/Au:N/C:P/I:P/A:P' }).problem).toMatch(/is not scored/);
  });
});

describe('a record’s severity', () => {
  test('the newest CVSS version wins', () => {
    const severity = recordSeverity(
      record({
        severity: [
          { type: 'CVSS_V3', score: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H' },
          { type: 'CVSS_V4', score: 'CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:P/VC:L/VI:L/VA:N/SC:N/SI:N/SA:N' },
        ],
      }),
    );
    expect(severity).toMatchObject({ severity: 'medium', score: 5.3, source: 'cvss' });
    expect(severity.severities).toHaveLength(2);
  });

  test('vectors of the affected entries count; without any, the ecosystem’s worst word', () => {
    const fromAffected = recordSeverity(
      record({
        affected: [{ severity: [{ type: 'CVSS_V3', score: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:N/A:H' }] }],
      }),
    );
    expect(fromAffected).toMatchObject({ severity: 'high', score: 7.5, source: 'cvss' });
    const words = recordSeverity(
      record({
        database_specific: { severity: 'MODERATE' },
        affected: [{ ecosystem_specific: { urgency: 'high' } }, { database_specific: { severity: 'low' } }],
      }),
    );
    expect(words).toMatchObject({ severity: 'high', score: null, source: 'ecosystem' });
    expect(recordSeverity(record({}))).toMatchObject({ severity: 'unknown', source: 'none' });
  });

  test.each([
    ['CRITICAL', 'critical'],
    ['important', 'high'],
    ['MODERATE', 'medium'],
    ['negligible', 'low'],
    ['low**', 'low'],
    ['unimportant', 'low'],
    ['whatever', null],
    [3, null],
  ] as const)('the word %s is %s', (word, rating) => expect(wordRating(word)).toBe(rating));
});
