/** Matching components against library entries in memory: by package key, one match per component and record. */
import { expect, test } from 'vitest';
import { componentKey, packageKey } from '../ecosystems/names.ts';
import { type MatchComponent, type MatchRecord, matchComponents } from './match.ts';

const component = (ecosystem: MatchComponent['ecosystem'], name: string, version: string): MatchComponent => ({
  key: componentKey(ecosystem, name, version),
  ecosystem,
  packageKey: packageKey(ecosystem, name),
  version,
});

const records: MatchRecord[] = [
  // Two entries of one record for the same package (two branches): one match, the fix of the branch holding it.
  {
    refId: 'GHSA-aaaa',
    seq: 0,
    ecosystem: 'npm',
    packageKey: 'npm:@scope/lib',
    ranges: [{ type: 'SEMVER', events: [{ introduced: '1.0.0' }, { fixed: '1.4.0' }] }],
    versions: [],
  },
  {
    refId: 'GHSA-aaaa',
    seq: 1,
    ecosystem: 'npm',
    packageKey: 'npm:@scope/lib',
    ranges: [{ type: 'SEMVER', events: [{ introduced: '0' }, { fixed: '1.3.5' }] }],
    versions: [],
  },
  {
    refId: 'PYSEC-1',
    seq: 0,
    ecosystem: 'PyPI',
    packageKey: 'PyPI:django-rest',
    ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }, { fixed: '3.0' }] }],
    versions: [],
  },
  {
    refId: 'GO-1',
    seq: 0,
    ecosystem: 'Go',
    packageKey: 'Go:github.com/o/mod',
    ranges: [{ type: 'SEMVER', events: [{ introduced: '0' }, { last_affected: '1.2.0' }] }],
    versions: [],
  },
];

test('components meet records by normalised package key and version', () => {
  const matches = matchComponents(
    [
      component('npm', '@Scope/Lib', '1.2.0'),
      component('PyPI', 'Django_Rest', '2.9'),
      component('PyPI', 'django.rest', '3.0'),
      component('Go', 'github.com/o/mod', 'v1.2.0'),
      component('Go', 'github.com/o/other', 'v1.0.0'),
    ],
    records,
  );
  expect(matches).toEqual([
    { componentKey: 'npm:@scope/lib@1.2.0', refId: 'GHSA-aaaa', fixedIn: '1.3.5' },
    { componentKey: 'PyPI:django-rest@2.9', refId: 'PYSEC-1', fixedIn: '3.0' },
    { componentKey: 'Go:github.com/o/mod@v1.2.0', refId: 'GO-1', fixedIn: null },
  ]);
});

test('one match per component and record, the smallest fix above the version among the entries that hold it', () => {
  // 1.3.6 is held only by the first entry (the second is fixed at 1.3.5): fixed in 1.4.0.
  expect(matchComponents([component('npm', '@scope/lib', '1.3.6')], records)).toEqual([
    { componentKey: 'npm:@scope/lib@1.3.6', refId: 'GHSA-aaaa', fixedIn: '1.4.0' },
  ]);
  const twice = component('npm', '@scope/lib', '1.0.0');
  expect(matchComponents([twice, twice], records)).toHaveLength(1);
});

test('no records, no components, an unreadable version: no match', () => {
  expect(matchComponents([], records)).toEqual([]);
  expect(matchComponents([component('npm', '@scope/lib', '1.2.0')], [])).toEqual([]);
  expect(matchComponents([component('npm', '@scope/lib', 'workspace:*')], records)).toEqual([]);
});

test('a release-specific Debian entry matches components of that release, or of no known release', () => {
  const entry: MatchRecord = {
    refId: 'DSA-5532-1',
    seq: 0,
    ecosystem: 'Debian',
    release: '12',
    packageKey: packageKey('Debian', 'openssl'),
    ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }, { fixed: '3.0.11-1~deb12u2' }] }],
    versions: [],
  };
  const of = (version: string, release: string | null): MatchComponent => ({
    key: `${componentKey('Debian', 'openssl', version)}/${release}`,
    ecosystem: 'Debian',
    packageKey: packageKey('Debian', 'openssl'),
    version,
    release,
  });
  const hits = matchComponents(
    [of('3.0.11-1~deb12u1', '12'), of('1.1.1n-0+deb11u3', '11'), of('1.1.1n-0+deb11u3', null)],
    [entry],
  );
  expect(hits.map((m) => m.componentKey)).toEqual([
    'Debian:openssl@3.0.11-1~deb12u1/12',
    'Debian:openssl@1.1.1n-0+deb11u3/null',
  ]);
});
