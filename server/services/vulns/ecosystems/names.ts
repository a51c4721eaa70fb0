/**
 * Package identity across OSV records, SBOM package URLs and typed components: the ecosystem as Spaceguard keys it
 * and the package name normalised the way the ecosystem itself compares names.
 */
import { PackageURL } from 'packageurl-js';
import { type Ecosystem, ecosystems } from '../../../../contract/constants/vulns.ts';

/** The ecosystem without OSV's release suffix (`Debian:12` → `Debian`); null when Spaceguard has no order for it. */
export function baseEcosystem(osvEcosystem: string): Ecosystem | null {
  const base = osvEcosystem.split(':')[0] ?? '';
  return ecosystems.find((e) => e === base) ?? null;
}

/**
 * A package name as its ecosystem compares it: PyPI per PEP 503 (case, runs of `-`, `_`, `.`), npm and Debian in
 * lower case (npm scopes kept), Maven `group:artifact` and Go module paths exactly (both are case-sensitive).
 */
export function normaliseName(ecosystem: Ecosystem, name: string): string {
  const trimmed = name.trim();
  switch (ecosystem) {
    case 'PyPI':
      return trimmed.toLowerCase().replace(/[-_.]+/g, '-');
    case 'npm':
    case 'Debian':
      return trimmed.toLowerCase();
    case 'Go':
      return trimmed.replace(/\/+$/, '');
    case 'Maven':
      return trimmed;
  }
}

/** The key records and components meet on: `ecosystem:normalised name`. */
export function packageKey(ecosystem: Ecosystem, name: string): string {
  return `${ecosystem}:${normaliseName(ecosystem, name)}`;
}

/** A component's identity within an asset: its package key and version. */
export function componentKey(ecosystem: Ecosystem, name: string, version: string): string {
  return `${packageKey(ecosystem, name)}@${version}`;
}

/** Debian releases by code name, as package URLs' `distro` qualifier may write them. */
const debianCodeNames: Readonly<Record<string, string>> = {
  stretch: '9',
  buster: '10',
  bullseye: '11',
  bookworm: '12',
  trixie: '13',
  forky: '14',
};

/**
 * The Debian release of a component from its purl's `distro` qualifier (`debian-11`, `debian-12.5`, `bookworm`), as
 * OSV's `Debian:12` names it; null when the purl says none.
 */
export function debianRelease(purl: string | null): string | null {
  if (!purl) return null;
  let distro: string | undefined;
  try {
    distro = PackageURL.fromString(purl).qualifiers?.distro;
  } catch {
    return null;
  }
  if (!distro) return null;
  const value = distro.toLowerCase();
  const numbered = /^(?:debian-)?(\d+)(?:\.\d+)*$/.exec(value);
  if (numbered) return numbered[1] ?? null;
  return debianCodeNames[value.replace(/^debian-/, '')] ?? null;
}
