/**
 * Version order per ecosystem, as each ecosystem itself orders its versions (docs/vulnerability-matching.md):
 *
 * - npm: SemVer 2.0 (`semver`, strict: pre-releases by the spec's precedence; a leading `=` or `v` is tolerated).
 * - Go: SemVer after the `v` (`v1.2.3`); `+incompatible` is build metadata, so ignored; pseudo-versions
 *   (`v0.0.0-20210101000000-abcdef123456`) are SemVer pre-releases and sort as such; `v1` and `v1.2` mean `v1.0.0`
 *   and `v1.2.0`, as Go's own `semver` package reads them; the toolchain's `go1.21.3`, `go1.21rc2` are `v1.21.3`,
 *   `v1.21.0-rc.2`.
 * - PyPI: PEP 440 (`@renovatebot/pep440`: epochs, pre, post and dev releases, local versions).
 * - Maven: Maven's ComparableVersion (`1 = 1.0 = 1.0.0`, alpha < beta < milestone < rc < snapshot < "" < sp, other
 *   qualifiers after them), ported in `maven.ts`: `mvncmp` (tried and dropped) is not antisymmetric (see there).
 * - Debian: dpkg's order (epoch, upstream version, revision; `~` before everything, even the end), written here
 *   after dpkg's `verrevcmp`: `deb-version-compare` (tried and dropped) answers `1.0 = 1.0-1` and `1 > a`, both wrong.
 *
 * `SEMVER` is the order of OSV ranges of type SEMVER whatever the ecosystem (a leading `v` stripped).
 *
 * Parsing is memoised: `versionKey` answers the same object for the same version, so comparing one installed
 * version against thousands of range events parses each string once.
 */
import * as pep440 from '@renovatebot/pep440';
import { SemVer } from 'semver';
import type { Ecosystem } from '../../../../contract/constants/vulns.ts';
import { compareMaven, type MavenVersion, parseMaven } from './maven.ts';

/** An ecosystem's order, or SemVer's for OSV ranges of type SEMVER. */
export type VersionScheme = Ecosystem | 'SEMVER';

/** A version the scheme cannot read. */
export class InvalidVersion extends Error {
  readonly scheme: VersionScheme;
  readonly version: string;
  constructor(scheme: VersionScheme, version: string) {
    super(`Not a ${scheme} version: ${JSON.stringify(version)}`);
    this.name = 'InvalidVersion';
    this.scheme = scheme;
    this.version = version;
  }
}

type DebianParts = { epoch: number; upstream: string; revision: string };

/** A parsed version, compared with `compareKeys` (only keys of the same scheme compare). */
export type VersionKey =
  | { scheme: 'npm' | 'Go' | 'SEMVER'; text: string; semver: SemVer }
  | { scheme: 'PyPI'; text: string }
  | { scheme: 'Maven'; text: string; maven: MavenVersion }
  | { scheme: 'Debian'; text: string; debian: DebianParts };

const SEMVER_OPTIONS = { loose: false, includePrerelease: true } as const;

function parseSemver(text: string): SemVer | null {
  try {
    return new SemVer(text, SEMVER_OPTIONS);
  } catch {
    return null;
  }
}

/** The toolchain's own names (`go1.21.3`, `go1.21`, `go1.21rc2`) as SemVer (`1.21.3`, `1.21.0`, `1.21.0-rc.2`). */
const GO_TOOLCHAIN = /^go(\d+)\.(\d+)(?:\.(\d+))?(?:(rc|beta)(\d+))?$/;

/**
 * Go: `v` then SemVer; `v1` and `v1.2` are Go's shorthands for `v1.0.0` and `v1.2.0`; the toolchain's own names
 * (the `stdlib` and `toolchain` packages) as Go's vulnerability database reads them.
 */
function parseGo(text: string): SemVer | null {
  const toolchain = GO_TOOLCHAIN.exec(text);
  if (toolchain) {
    const [, major, minor, patch, pre, n] = toolchain;
    return parseSemver(`${major}.${minor}.${patch ?? '0'}${pre ? `-${pre}.${n}` : ''}`);
  }
  const bare = text.startsWith('v') ? text.slice(1) : text;
  const short = /^(\d+)(?:\.(\d+))?$/.exec(bare);
  if (short) return parseSemver(`${short[1]}.${short[2] ?? '0'}.0`);
  return parseSemver(bare);
}

const DEBIAN_EPOCH = /^\d+$/;
const DEBIAN_UPSTREAM = /^[0-9A-Za-z][0-9A-Za-z.+~:-]*$/;
const DEBIAN_REVISION = /^[0-9A-Za-z.+~]+$/;

/** `[epoch:]upstream[-revision]` as dpkg splits it: the epoch before the first `:`, the revision after the last `-`. */
function parseDebian(text: string): DebianParts | null {
  const colon = text.indexOf(':');
  const epochText = colon >= 0 ? text.slice(0, colon) : '0';
  if (!DEBIAN_EPOCH.test(epochText)) return null;
  const rest = colon >= 0 ? text.slice(colon + 1) : text;
  const dash = rest.lastIndexOf('-');
  const upstream = dash >= 0 ? rest.slice(0, dash) : rest;
  const revision = dash >= 0 ? rest.slice(dash + 1) : '';
  if (!DEBIAN_UPSTREAM.test(upstream)) return null;
  if (dash >= 0 && !DEBIAN_REVISION.test(revision)) return null;
  return { epoch: Number(epochText), upstream, revision };
}

function parseKey(scheme: VersionScheme, raw: string): VersionKey | null {
  const text = raw.trim();
  if (text === '') return null;
  switch (scheme) {
    case 'npm': {
      const parsed = parseSemver(text.replace(/^=?v?/, ''));
      return parsed ? { scheme, text, semver: parsed } : null;
    }
    case 'SEMVER': {
      const parsed = parseSemver(text.startsWith('v') ? text.slice(1) : text);
      return parsed ? { scheme, text, semver: parsed } : null;
    }
    case 'Go': {
      const parsed = parseGo(text);
      return parsed ? { scheme, text, semver: parsed } : null;
    }
    case 'PyPI':
      return pep440.valid(text) === null ? null : { scheme, text };
    case 'Maven':
      return /\s/.test(text) ? null : { scheme, text, maven: parseMaven(text) };
    case 'Debian': {
      const parts = parseDebian(text);
      return parts ? { scheme, text, debian: parts } : null;
    }
  }
}

const MEMO_LIMIT = 200_000;
const memo = new Map<VersionScheme, Map<string, VersionKey | null>>();

/** The parsed version, or null when the scheme cannot read it (memoised, unparsable answers too). */
export function tryVersionKey(scheme: VersionScheme, version: string): VersionKey | null {
  let cache = memo.get(scheme);
  if (!cache) {
    cache = new Map();
    memo.set(scheme, cache);
  }
  const known = cache.get(version);
  if (known !== undefined) return known;
  const key = parseKey(scheme, version);
  if (cache.size >= MEMO_LIMIT) cache.clear();
  cache.set(version, key);
  return key;
}

/** The parsed version; throws `InvalidVersion` when the scheme cannot read it. */
export function versionKey(scheme: VersionScheme, version: string): VersionKey {
  const key = tryVersionKey(scheme, version);
  if (!key) throw new InvalidVersion(scheme, version);
  return key;
}

export function isValidVersion(scheme: VersionScheme, version: string): boolean {
  return tryVersionKey(scheme, version) !== null;
}

const isDigit = (code: number) => code >= 48 && code <= 57;
const isAlpha = (code: number) => (code >= 65 && code <= 90) || (code >= 97 && code <= 122);

/** dpkg's weight of a character in a non-digit run: letters first, then other characters; `~` before the end. */
function dpkgOrder(text: string, i: number): number {
  if (i >= text.length) return 0;
  const code = text.charCodeAt(i);
  if (isDigit(code)) return 0;
  if (isAlpha(code)) return code;
  if (code === 126) return -1;
  return code + 256;
}

/** dpkg's `verrevcmp`: alternating non-digit runs (by `dpkgOrder`) and digit runs (by number). */
function dpkgCompare(a: string, b: string): number {
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    while ((i < a.length && !isDigit(a.charCodeAt(i))) || (j < b.length && !isDigit(b.charCodeAt(j)))) {
      const ac = dpkgOrder(a, i);
      const bc = dpkgOrder(b, j);
      if (ac !== bc) return ac - bc;
      i++;
      j++;
    }
    while (a.charCodeAt(i) === 48) i++;
    while (b.charCodeAt(j) === 48) j++;
    let firstDiff = 0;
    while (isDigit(a.charCodeAt(i)) && isDigit(b.charCodeAt(j))) {
      if (firstDiff === 0) firstDiff = a.charCodeAt(i) - b.charCodeAt(j);
      i++;
      j++;
    }
    if (isDigit(a.charCodeAt(i))) return 1;
    if (isDigit(b.charCodeAt(j))) return -1;
    if (firstDiff !== 0) return firstDiff;
  }
  return 0;
}

function debianCompare(a: DebianParts, b: DebianParts): number {
  if (a.epoch !== b.epoch) return a.epoch - b.epoch;
  return dpkgCompare(a.upstream, b.upstream) || dpkgCompare(a.revision, b.revision);
}

/** Negative, 0 or positive; both keys must be of the same scheme. */
export function compareKeys(a: VersionKey, b: VersionKey): number {
  if (a === b) return 0;
  switch (a.scheme) {
    case 'npm':
    case 'Go':
    case 'SEMVER':
      return a.semver.compare((b as typeof a).semver);
    case 'PyPI':
      return pep440.compare(a.text, b.text);
    case 'Maven':
      return compareMaven(a.maven, (b as typeof a).maven);
    case 'Debian':
      return debianCompare(a.debian, (b as typeof a).debian);
  }
}

/** Negative, 0 or positive as `a` sorts before, with or after `b` in the ecosystem; throws `InvalidVersion`. */
export function compareVersions(ecosystem: Ecosystem, a: string, b: string): number {
  return Math.sign(compareKeys(versionKey(ecosystem, a), versionKey(ecosystem, b)));
}

/** SemVer 2.0 precedence (OSV ranges of type SEMVER), a leading `v` stripped; throws `InvalidVersion`. */
export function semverCompare(a: string, b: string): number {
  return Math.sign(compareKeys(versionKey('SEMVER', a), versionKey('SEMVER', b)));
}
