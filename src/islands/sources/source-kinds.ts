/** The kinds of log source with the words the screens use for them (mirrors contract/sources.ts without zod). */
import type { SourceKind } from '../../../contract/sources.ts';

/** Kinds in the order the create form offers them, with their labels. */
export const SOURCE_KINDS: readonly { readonly value: SourceKind; readonly label: string }[] = [
  { value: 'modsecurity', label: 'ModSecurity audit log' },
  { value: 'json', label: 'JSON lines' },
  { value: 'syslog', label: 'Syslog (RFC 5424)' },
];

/** Human label of a kind. */
export function kindLabel(kind: SourceKind): string {
  return SOURCE_KINDS.find((k) => k.value === kind)?.label ?? kind;
}

/** Turns a form value into a kind, or null when it is none of them. */
export function parseKind(value: unknown): SourceKind | null {
  return SOURCE_KINDS.find((k) => k.value === value)?.value ?? null;
}
