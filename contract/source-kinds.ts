/** A source kind named in a value (a form's choice). No zod, for the islands. */
import { type SourceKind, sourceKinds } from './constants/sources.ts';

/** Turns any value into a kind, or null when it names none. */
export function parseSourceKind(value: unknown): SourceKind | null {
  return sourceKinds.find((k) => k === value) ?? null;
}
