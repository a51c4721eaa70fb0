/** Plain constants of vulnerability management, for the API and the islands alike. */
import { type Severity, severities } from './events.ts';

/** The ecosystems whose version order Spaceguard knows, as OSV names them (Debian records say `Debian:12`). */
export const ecosystems = ['npm', 'PyPI', 'Maven', 'Go', 'Debian'] as const;
export type Ecosystem = (typeof ecosystems)[number];

/** The event severities a CVSS rating shares (all but `info`). */
type Rated = Exclude<Severity, 'info'>;
export type VulnSeverity = Rated | 'none' | 'unknown';

/**
 * A record's or a finding's severity, worst first: the event severities a CVSS rating shares, then `none` (a score of
 * 0) and `unknown` (no vector and no word of the ecosystem's own).
 */
export const vulnSeverities = [...severities.filter((s): s is Rated => s !== 'info'), 'none', 'unknown'] as unknown as [
  VulnSeverity,
  ...VulnSeverity[],
];

export const vulnSeverityLabels: Readonly<Record<VulnSeverity, string>> = {
  critical: 'Critical',
  high: 'High',
  medium: 'Medium',
  low: 'Low',
  none: 'None',
  unknown: 'Unknown',
};

export const assetKinds = ['application', 'host'] as const;
export type AssetKind = (typeof assetKinds)[number];

/** A finding's status; `fixed` is set by assessments only, `mitigated` by a virtual patch. */
export const findingStatuses = ['open', 'not_affected', 'accepted', 'mitigated', 'fixed'] as const;
export type FindingStatus = (typeof findingStatuses)[number];

export const findingStatusLabels: Readonly<Record<FindingStatus, string>> = {
  open: 'Open',
  not_affected: 'Not affected',
  accepted: 'Risk accepted',
  mitigated: 'Mitigated',
  fixed: 'Fixed',
};

/** The statuses a person may set (PATCH .../findings/{id}). */
export const triageableStatuses = ['open', 'not_affected', 'accepted'] as const;

/** CycloneDX VEX justifications (`analysis.justification`) a `not_affected` finding carries. */
export const vexJustifications = [
  'code_not_present',
  'code_not_reachable',
  'requires_configuration',
  'requires_dependency',
  'requires_environment',
  'protected_by_compiler',
  'protected_at_runtime',
  'protected_at_perimeter',
  'protected_by_mitigating_control',
] as const;
export type VexJustification = (typeof vexJustifications)[number];

export const vexJustificationLabels: Readonly<Record<VexJustification, string>> = {
  code_not_present: 'The vulnerable code is not present',
  code_not_reachable: 'The vulnerable code is not reachable',
  requires_configuration: 'Exploitation needs a configuration we do not use',
  requires_dependency: 'Exploitation needs a dependency we do not have',
  requires_environment: 'Exploitation needs an environment we do not run',
  protected_by_compiler: 'Protected by the compiler',
  protected_at_runtime: 'Protected at run time',
  protected_at_perimeter: 'Protected at the perimeter (firewall)',
  protected_by_mitigating_control: 'Protected by another mitigating control',
};

/** Limits of uploads and inputs. */
export const vulnLimits = {
  /** An OSV import body (a JSON file or a zip archive such as OSV's all.zip). */
  importBytes: 256 * 1024 * 1024,
  /** A record file inside a zip, once decompressed (OSV's biggest records are far smaller). */
  zipEntryBytes: 16 * 1024 * 1024,
  /** Everything one zip import decompresses, counted while inflating: past it the import is refused (a zip bomb). */
  zipInflatedBytes: 1024 * 1024 * 1024,
  /** How many times its compressed size one zip entry may inflate to (JSON records stay far below). */
  zipEntryRatio: 100,
  /** Entries (files and directories) of one zip archive. */
  zipEntries: 1_000_000,
  /** A CycloneDX SBOM upload. */
  sbomBytes: 32 * 1024 * 1024,
  componentsPerAsset: 20_000,
  assetNameLength: 120,
  tags: 20,
  tagLength: 40,
  reasonLength: 2_000,
  bulkIds: 500,
} as const;
