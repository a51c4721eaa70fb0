/** OSV range evaluation (the schema's "Evaluation" section) and the fixed-in version, with tricky ranges per ecosystem. */
import { describe, expect, test } from 'vitest';
import type { Ecosystem } from '../../../../contract/constants/vulns.ts';
import { type AffectedEntry, fixedIn, isAffected, type OsvEvent, type OsvRange } from './affected.ts';

const range = (type: string, ...events: OsvEvent[]): OsvRange => ({ type, events });
const entry = (ecosystem: Ecosystem, ranges: OsvRange[], versions: string[] = []): AffectedEntry => ({
  ecosystem,
  ranges,
  versions,
});

function expectAffected(one: AffectedEntry, yes: readonly string[], no: readonly string[]) {
  for (const v of yes) expect(isAffected(one, v), `${v} affected`).toBe(true);
  for (const v of no) expect(isAffected(one, v), `${v} not affected`).toBe(false);
}

describe('events in a range', () => {
  test('introduced 0 alone: every version', () => {
    expectAffected(entry('npm', [range('SEMVER', { introduced: '0' })]), ['0.0.1', '1.0.0-alpha', '99.0.0'], []);
  });

  test('introduced 0 and fixed: everything below the fix', () => {
    const one = entry('npm', [range('SEMVER', { introduced: '0' }, { fixed: '1.0.2' })]);
    expectAffected(one, ['0.0.0', '1.0.1', '1.0.2-rc.1'], ['1.0.2', '1.0.3', '2.0.0']);
  });

  test('several introduced/fixed pairs in one range (the schema example), events out of order', () => {
    const one = entry('npm', [
      range('SEMVER', { fixed: '3.2.5' }, { introduced: '3.0.0' }, { fixed: '1.0.2' }, { introduced: '1.0.0' }),
    ]);
    expectAffected(one, ['1.0.0', '1.0.1', '3.0.0', '3.2.4'], ['0.9.9', '1.0.2', '2.5.0', '3.2.5', '4.0.0']);
  });

  test('several ranges: any one of them', () => {
    const one = entry('PyPI', [
      range('ECOSYSTEM', { introduced: '1.0' }, { fixed: '1.4.2' }),
      range('ECOSYSTEM', { introduced: '2.0' }, { fixed: '2.1.1' }),
    ]);
    expectAffected(one, ['1.0', '1.4.1', '2.0', '2.1.0'], ['0.9', '1.4.2', '1.9', '2.1.1', '3.0']);
  });

  test('last_affected is inclusive', () => {
    const one = entry('Maven', [range('ECOSYSTEM', { introduced: '0' }, { last_affected: '2.1.214' })]);
    expectAffected(one, ['1.0', '2.1.214', '2.1.214.0'], ['2.1.215', '2.2']);
  });

  test('limit caps the range; * is infinity', () => {
    const capped = entry('npm', [range('SEMVER', { introduced: '1.0.0' }, { limit: '1.5.0' })]);
    expectAffected(capped, ['1.0.0', '1.4.9'], ['0.9.0', '1.5.0', '2.0.0']);
    const two = entry('npm', [range('SEMVER', { introduced: '1.0.0' }, { limit: '1.5.0' }, { limit: '3.0.0' })]);
    expectAffected(two, ['1.0.0', '2.9.9'], ['3.0.0']);
    const star = entry('npm', [range('SEMVER', { introduced: '1.0.0' }, { limit: '*' })]);
    expectAffected(star, ['1.0.0', '9.0.0'], ['0.1.0']);
    const unreadable = entry('npm', [range('SEMVER', { introduced: '1.0.0' }, { limit: 'main' })]);
    expectAffected(unreadable, ['1.0.0', '9.0.0'], ['0.1.0']);
  });

  test('an npm pre-release of the fixed version is still affected', () => {
    const one = entry('npm', [range('SEMVER', { introduced: '1.0.0' }, { fixed: '2.0.0' })]);
    expectAffected(one, ['1.0.0', '2.0.0-rc.1', '2.0.0-alpha'], ['1.0.0-rc.1', '2.0.0']);
  });

  test('introduced at a pre-release', () => {
    const one = entry('npm', [range('ECOSYSTEM', { introduced: '2.0.0-beta.1' }, { fixed: '2.0.0' })]);
    expectAffected(
      one,
      ['2.0.0-beta.1', '2.0.0-beta.2', '2.0.0-rc.1'],
      ['2.0.0-alpha.9', '2.0.0-beta', '2.0.0', '1.9.9'],
    );
  });
});

describe('per ecosystem order', () => {
  test('PyPI epochs, pre-releases and post-releases', () => {
    const one = entry('PyPI', [range('ECOSYSTEM', { introduced: '0' }, { fixed: '2.0' })]);
    // 1!0.1 is after 2.0 (epoch 1); 2.0rc1 and 2.0.dev1 before it; 2.0.post1 after.
    expectAffected(one, ['1.9', '2.0rc1', '2.0.dev1', '2.0a1'], ['1!0.1', '2.0', '2.0.0', '2.0.post1']);
    const epoch = entry('PyPI', [range('ECOSYSTEM', { introduced: '1!1.0' }, { fixed: '1!1.5' })]);
    expectAffected(epoch, ['1!1.0', '1!1.4'], ['1.2', '9.9', '1!1.5']);
  });

  test('Debian epochs, tildes and revisions', () => {
    const one = entry('Debian', [range('ECOSYSTEM', { introduced: '0' }, { fixed: '1:2.4.1-1' })]);
    // Without an epoch 9.0 is epoch 0, below 1:2.4.1-1.
    expectAffected(one, ['9.0', '1:2.4.1~rc1-1', '1:2.4.0-5', '1:2.4.1'], ['1:2.4.1-1', '1:2.4.1-1+deb12u1', '2:0.1']);
    const tilde = entry('Debian', [range('ECOSYSTEM', { introduced: '1.0~rc1' }, { fixed: '1.0-2' })]);
    expectAffected(tilde, ['1.0~rc1', '1.0~rc2', '1.0', '1.0-1', '1.0-1+b1'], ['1.0~beta9', '1.0~rc1~1', '1.0-2']);
  });

  test('Maven snapshots and qualifiers', () => {
    const one = entry('Maven', [range('ECOSYSTEM', { introduced: '2.0.0' }, { fixed: '2.17.1' })]);
    expectAffected(
      one,
      ['2.0', '2.17.0', '2.17.1-SNAPSHOT', '2.17.1-rc1', '2.0.0-sp1'],
      ['2.0-beta9', '2.17.1', '2.17.1.0', '2.17.1-sp1'],
    );
  });

  test('Go: v prefixes, +incompatible and pseudo-versions against a SEMVER range', () => {
    const one = entry('Go', [range('SEMVER', { introduced: '0' }, { fixed: '1.5.0' })]);
    expectAffected(
      one,
      ['v1.4.9', 'v0.0.0-20210101000000-abcdef123456', 'v1.5.0-0.20210101000000-abcdef123456'],
      ['v1.5.0', 'v1.5.1'],
    );
    // Go's shorthand and npm's `=` are read as the ecosystem reads them, SemVer too.
    expectAffected(one, ['v1.4', 'v1'], ['v1.5', 'v2']);
    expectAffected(entry('npm', [range('SEMVER', { introduced: '1.0.0' })]), ['=1.2.3', 'v1.0.0'], ['=0.9.0']);
    const incompatible = entry('Go', [range('SEMVER', { introduced: '2.0.0' }, { fixed: '2.3.0' })]);
    expectAffected(incompatible, ['v2.0.0+incompatible', 'v2.2.9+incompatible'], ['v2.3.0+incompatible', 'v1.9.0']);
  });
});

describe('versions list and GIT ranges', () => {
  test('GIT ranges are ignored; only the versions list counts', () => {
    const git: OsvRange = {
      type: 'GIT',
      repo: 'https://github.com/o/r',
      events: [{ introduced: '0' }, { fixed: 'abc123' }],
    };
    expectAffected(entry('npm', [git]), [], ['1.0.0', 'abc123']);
    expectAffected(entry('npm', [git], ['1.0.0', '1.0.1']), ['1.0.0', '1.0.1', 'v1.0.1'], ['1.0.2']);
  });

  test('the explicit list matches exactly, after the ecosystem reads the same version', () => {
    expectAffected(entry('Maven', [], ['1.0']), ['1.0', '1.0.0', '1'], ['1.0.1', '1.0-SNAPSHOT']);
    expectAffected(entry('PyPI', [], ['1.0']), ['1.0', '1.0.0', '1'], ['1.0.post1', '1.0rc1']);
    expectAffected(entry('Debian', [], ['1:1.2-3']), ['1:1.2-3'], ['1.2-3', '1:1.2-3+b1']);
  });

  test('an installed version the ecosystem cannot read matches only the list', () => {
    const one = entry('npm', [range('SEMVER', { introduced: '0' })], ['nightly']);
    expectAffected(one, ['nightly', '1.0.0'], ['1.0', 'latest']);
  });

  test('unreadable event versions are left out of the range', () => {
    const one = entry('npm', [range('ECOSYSTEM', { introduced: '1.0.0' }, { fixed: 'soon' })]);
    expectAffected(one, ['1.0.0', '5.0.0'], ['0.9.0']);
    const noStart = entry('npm', [range('ECOSYSTEM', { introduced: 'first' }, { fixed: '2.0.0' })]);
    expectAffected(noStart, [], ['1.0.0', '2.0.0']);
  });

  test('malformed ranges and events are skipped, not thrown', () => {
    const odd = {
      ecosystem: 'npm',
      ranges: [null, { type: 'SEMVER' }, { type: 'SEMVER', events: [null, 7, { introduced: '0' }] }],
      versions: [],
    };
    expect(isAffected(odd as unknown as AffectedEntry, '1.0.0')).toBe(true);
  });
});

describe('fixedIn', () => {
  test('the next fix above the installed version in a range of several pairs', () => {
    const one = entry('npm', [
      range('SEMVER', { introduced: '1.0.0' }, { fixed: '1.0.2' }, { introduced: '3.0.0' }, { fixed: '3.2.5' }),
    ]);
    expect(fixedIn([one], '1.0.1')).toBe('1.0.2');
    expect(fixedIn([one], '3.1.0')).toBe('3.2.5');
    expect(fixedIn([one], '2.0.0')).toBeNull();
  });

  test('the smallest fix above the installed version across ranges and entries that hold it', () => {
    const a = entry('PyPI', [
      range('ECOSYSTEM', { introduced: '0' }, { fixed: '2.0.1' }),
      range('ECOSYSTEM', { introduced: '1.5' }, { fixed: '1.8.post1' }),
      range('ECOSYSTEM', { introduced: '1.9' }, { fixed: '1.9.4' }),
    ]);
    const b = entry('PyPI', [range('ECOSYSTEM', { introduced: '1.0' }, { fixed: '1.7' })]);
    // 1.6 is held by the first, second and b's range; 1.7 < 1.8.post1 < 2.0.1. The third range does not hold it.
    expect(fixedIn([a, b], '1.6')).toBe('1.7');
    expect(fixedIn([a], '1.6')).toBe('1.8.post1');
    expect(fixedIn([a], '1.8.post1')).toBe('2.0.1');
  });

  test('in the ecosystem order: Debian epochs and tildes, Maven qualifiers', () => {
    const deb = entry('Debian', [
      range('ECOSYSTEM', { introduced: '0' }, { fixed: '1:1.0-1' }),
      range('ECOSYSTEM', { introduced: '0' }, { fixed: '2.0~rc1-1' }),
    ]);
    expect(fixedIn([deb], '1.5-1')).toBe('2.0~rc1-1');
    expect(fixedIn([deb], '3.0-1')).toBe('1:1.0-1');
    const mvn = entry('Maven', [
      range('ECOSYSTEM', { introduced: '0' }, { fixed: '2.0' }),
      range('ECOSYSTEM', { introduced: '0' }, { fixed: '2.0-rc1' }),
    ]);
    expect(fixedIn([mvn], '1.9')).toBe('2.0-rc1');
  });

  test('null when only last_affected bounds it, when only listed, when not affected', () => {
    expect(
      fixedIn([entry('npm', [range('SEMVER', { introduced: '0' }, { last_affected: '1.2.3' })])], '1.0.0'),
    ).toBeNull();
    expect(fixedIn([entry('npm', [], ['1.0.0'])], '1.0.0')).toBeNull();
    expect(fixedIn([entry('npm', [range('SEMVER', { introduced: '0' }, { fixed: '1.0.0' })])], '1.5.0')).toBeNull();
  });
});
