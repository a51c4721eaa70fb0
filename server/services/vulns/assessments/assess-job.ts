/**
 * The `vulns.assess` job's kind and arguments, apart from its worker so that the library import can enqueue a
 * re-assessment without importing the assessment code.
 */
export type AssessArgs = {
  spaceId: string;
  /** One asset, or null for all of the space's assets. */
  assetId: string | null;
  /** `import` when a library import asked for it. */
  trigger: 'import' | 'manual';
};

export const assessJob = { kind: 'vulns.assess', queue: 'vulns', maxAttempts: 5 } as const;
