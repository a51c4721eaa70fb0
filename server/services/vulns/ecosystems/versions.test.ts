/**
 * Version order per ecosystem, from each ecosystem's own documented examples (semver.org § 11, PEP 440's ordering
 * examples, Maven's ComparableVersionTest, Debian policy § 5.6.12 and dpkg, Go's module version rules).
 */
import { describe, expect, test } from 'vitest';
import type { Ecosystem } from '../../../../contract/constants/vulns.ts';
import { compareVersions, InvalidVersion, isValidVersion, semverCompare, versionKey } from './versions.ts';

/** Every earlier version of the list sorts before every later one, in both directions of the comparison. */
function expectAscending(ecosystem: Ecosystem, versions: readonly string[]) {
  for (let i = 0; i < versions.length; i++) {
    for (let j = i + 1; j < versions.length; j++) {
      const a = versions[i] as string;
      const b = versions[j] as string;
      expect(compareVersions(ecosystem, a, b), `${a} < ${b}`).toBe(-1);
      expect(compareVersions(ecosystem, b, a), `${b} > ${a}`).toBe(1);
    }
  }
}

function expectEqual(ecosystem: Ecosystem, versions: readonly string[]) {
  for (const a of versions) for (const b of versions) expect(compareVersions(ecosystem, a, b), `${a} = ${b}`).toBe(0);
}

describe('npm (SemVer 2.0)', () => {
  test('semver.org precedence example', () => {
    expectAscending('npm', [
      '1.0.0-alpha',
      '1.0.0-alpha.1',
      '1.0.0-alpha.beta',
      '1.0.0-beta',
      '1.0.0-beta.2',
      '1.0.0-beta.11',
      '1.0.0-rc.1',
      '1.0.0',
      '2.0.0',
      '2.1.0',
      '2.1.1',
    ]);
  });
  test('build metadata is ignored; `v` and `=` prefixes are tolerated', () => {
    expectEqual('npm', ['1.0.0', '1.0.0+20130313144700', 'v1.0.0', '=1.0.0', '=v1.0.0']);
  });
  test('numeric identifiers compare as numbers, not strings', () => {
    expectAscending('npm', ['1.9.0', '1.10.0', '1.11.0']);
  });
  test('loose forms are not versions', () => {
    for (const v of ['1.2', '1', 'latest', '1.2.3beta', '01.2.3', '']) expect(isValidVersion('npm', v), v).toBe(false);
    expect(() => compareVersions('npm', '1.2', '1.2.0')).toThrow(InvalidVersion);
  });
});

describe('Go (SemVer with a v)', () => {
  test('the v is optional; +incompatible is build metadata', () => {
    expectEqual('Go', ['v1.2.3', '1.2.3']);
    expectEqual('Go', ['v2.0.0+incompatible', 'v2.0.0', '2.0.0']);
  });
  test('pseudo-versions sort as pre-releases of the next version, by time', () => {
    expectAscending('Go', [
      'v0.0.0-20200101000000-aaaaaaaaaaaa',
      'v0.0.0-20210101000000-abcdef123456',
      'v0.0.1',
      'v1.2.3',
      'v1.2.4-0.20210101000000-abcdef123456',
      'v1.2.4',
      'v2.0.0-rc.1',
      'v2.0.0+incompatible',
      'v2.1.0+incompatible',
    ]);
  });
  test("Go's shorthands v1 and v1.2", () => {
    expectEqual('Go', ['v1', 'v1.0', 'v1.0.0']);
    expectEqual('Go', ['v1.2', 'v1.2.0']);
  });
  test("the toolchain's names (stdlib): go1.21.3 is v1.21.3, go1.21rc2 is v1.21.0-rc.2", () => {
    expectEqual('Go', ['go1.21.3', 'v1.21.3', '1.21.3']);
    expectEqual('Go', ['go1.21', 'v1.21.0']);
    expectEqual('Go', ['go1.21rc2', 'v1.21.0-rc.2']);
    expectAscending('Go', ['go1.20.14', 'go1.21beta1', 'go1.21rc1', 'go1.21rc2', 'go1.21.0', 'go1.21.3']);
  });
  test('not versions', () => {
    for (const v of ['v1.2.3.4', 'master', 'vX']) expect(isValidVersion('Go', v), v).toBe(false);
  });
});

describe('PyPI (PEP 440)', () => {
  test("PEP 440's ordering example of every suffix", () => {
    expectAscending('PyPI', [
      '1.0.dev456',
      '1.0a1',
      '1.0a2.dev456',
      '1.0a12.dev456',
      '1.0a12',
      '1.0b1.dev456',
      '1.0b2',
      '1.0b2.post345.dev456',
      '1.0b2.post345',
      '1.0rc1.dev456',
      '1.0rc1',
      '1.0',
      '1.0+abc.5',
      '1.0+abc.7',
      '1.0+5',
      '1.0.post456.dev34',
      '1.0.post456',
      '1.0.15',
      '1.1.dev1',
    ]);
  });
  test('dev < a < b < rc < final < post', () => {
    expectAscending('PyPI', ['1.0.dev0', '1.0a1', '1.0b1', '1.0rc1', '1.0', '1.0.post1']);
  });
  test('epochs come first', () => {
    expectAscending('PyPI', ['2.0', '1!0.1']);
    expectAscending('PyPI', ['2013.10', '2014.04', '1!1.0', '1!1.1', '2!0.1']);
  });
  test('normalised forms are the same version', () => {
    expectEqual('PyPI', ['1.0', '1.0.0', '1', 'v1.0', '0!1.0']);
    expectEqual('PyPI', ['1.0a1', '1.0alpha1', '1.0-a1', '1.0.a.1']);
    expectEqual('PyPI', ['1.0rc1', '1.0c1', '1.0pre1', '1.0preview1']);
    expectEqual('PyPI', ['1.0.post1', '1.0-1', '1.0post1', '1.0.rev1', '1.0-r1']);
  });
  test('not versions', () => {
    for (const v of ['foo', '1.0-beta-final-x', '1..0', '']) expect(isValidVersion('PyPI', v), v).toBe(false);
  });
});

describe('Maven (ComparableVersion)', () => {
  test("ComparableVersionTest's qualifier sequence", () => {
    expectAscending('Maven', [
      '1-alpha2snapshot',
      '1-alpha2',
      '1-alpha-123',
      '1-beta-2',
      '1-beta123',
      '1-m2',
      '1-m11',
      '1-rc',
      '1-cr2',
      '1-rc123',
      '1-SNAPSHOT',
      '1',
      '1-sp',
      '1-sp2',
      '1-sp123',
      '1-abc',
      '1-def',
      '1-pom-1',
      '1-1-snapshot',
      '1-1',
      '1-2',
      '1-123',
    ]);
  });
  test("ComparableVersionTest's numbers", () => {
    expectAscending('Maven', [
      '2.0',
      '2-1',
      '2.0.a',
      '2.0.0.a',
      '2.0.2',
      '2.0.123',
      '2.1.0',
      '2.1-a',
      '2.1b',
      '2.1-c',
      '2.1-1',
      '2.1.0.1',
      '2.2',
      '2.123',
      '11.a2',
      '11.a11',
      '11.b2',
      '11.b11',
      '11.m2',
      '11.m11',
      '11',
      '11.a',
      '11b',
      '11c',
      '11m',
    ]);
  });
  test('trailing zeros, release aliases, shorthands and case do not count', () => {
    expectEqual('Maven', ['1', '1.0', '1.0.0', '1-ga', '1-final', '1-release', '1.0-GA', '1-0']);
    expectEqual('Maven', ['1a1', '1-alpha-1', '1-a1']);
    expectEqual('Maven', ['1b2', '1-beta-2']);
    expectEqual('Maven', ['1m3', '1-milestone-3']);
    expectEqual('Maven', ['1cr', '1rc', '1-CR']);
    expectEqual('Maven', ['1-SNAPSHOT', '1-snapshot']);
  });
  test('alpha < beta < milestone < rc < snapshot < release < sp', () => {
    expectAscending('Maven', ['1.0-alpha', '1.0-beta', '1.0-milestone', '1.0-rc', '1.0-SNAPSHOT', '1.0', '1.0-sp']);
    expectAscending('Maven', ['2.5.0-SNAPSHOT', '2.5.0', '2.5.1-SNAPSHOT', '2.5.1']);
  });
  test('not versions', () => {
    for (const v of ['', '   ', '1 0']) expect(isValidVersion('Maven', v), JSON.stringify(v)).toBe(false);
  });
});

describe('Debian (dpkg)', () => {
  test("policy's tilde example: ~~ < ~~a < ~ < (nothing) < a", () => {
    expectAscending('Debian', ['1.0~~', '1.0~~a', '1.0~', '1.0', '1.0a']);
    expectAscending('Debian', ['1.0~beta1~svn1245', '1.0~beta1', '1.0']);
    expectAscending('Debian', ['1.0~rc1', '1.0', '1.0+b1']);
  });
  test('epochs come first', () => {
    expectAscending('Debian', ['2.0', '1:0.1', '1:2.0', '2:0.0.1']);
    expectEqual('Debian', ['0:1.0', '1.0']);
  });
  test('revisions, an absent revision being 0', () => {
    expectAscending('Debian', ['1.0', '1.0-1', '1.0-1ubuntu1', '1.0-2', '1.0-10', '1.0.1-1']);
    expectEqual('Debian', ['1.0', '1.0-0']);
    expectAscending('Debian', ['2.36.1-8', '2.36.1-8+deb11u1', '2.36.1-9']);
  });
  test('digit runs compare as numbers, letters sort before other characters', () => {
    expectAscending('Debian', ['2.4', '2.30', '10.0']);
    expectAscending('Debian', ['1.0', '1.0a', '1.0+', '1.0.1']);
    expectEqual('Debian', ['1.01', '1.1', '001.1']);
    expectAscending('Debian', ['1', 'a']);
  });
  test('the upstream version may hold hyphens: the revision is after the last one', () => {
    expect(versionKey('Debian', '1:2.3-beta-4')).toMatchObject({
      debian: { epoch: 1, upstream: '2.3-beta', revision: '4' },
    });
  });
  test('not versions', () => {
    for (const v of ['1.0-', 'a:1.0', ':1.0', '1.0_1', '', '1.0-1_2'])
      expect(isValidVersion('Debian', v), v).toBe(false);
  });
});

describe('SEMVER ranges (any ecosystem)', () => {
  test('SemVer precedence with a leading v stripped', () => {
    expect(semverCompare('v1.0.0', '1.0.0')).toBe(0);
    expect(semverCompare('1.0.0-rc.1', '1.0.0')).toBe(-1);
    expect(semverCompare('1.10.0', '1.9.0')).toBe(1);
    expect(() => semverCompare('1.0', '1.0.0')).toThrow(InvalidVersion);
  });
});

test('parsed versions are memoised', () => {
  expect(versionKey('PyPI', '1.0rc1')).toBe(versionKey('PyPI', '1.0rc1'));
  expect(versionKey('Debian', '1:1.0-1')).toBe(versionKey('Debian', '1:1.0-1'));
});

test('Maven: a sub-list against a qualifier answers the same both ways (mvncmp did not)', () => {
  expect(compareVersions('Maven', '11b', '11.a2')).toBe(1);
  expect(compareVersions('Maven', '11.a2', '11b')).toBe(-1);
  expect(compareVersions('Maven', '1-1', '1-sp')).toBe(1);
  expect(compareVersions('Maven', '1-sp', '1-1')).toBe(-1);
});

test('Maven: numbers of any length compare as numbers', () => {
  expect(compareVersions('Maven', '1.20240101120000', '1.9')).toBe(1);
  expect(compareVersions('Maven', '1.0123456789012345678901', '1.123456789012345678900')).toBe(1);
  expect(compareVersions('Maven', '1.007', '1.7')).toBe(0);
});
