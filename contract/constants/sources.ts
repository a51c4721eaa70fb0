/** The kinds of log source (docs/product.md §3) with the words the screens use for them: plain values, no zod. */

/** ModSecurity v3 JSON audit records, generic JSON events, RFC 5424 syslog; in the order forms offer them. */
export const sourceKinds = ['modsecurity', 'json', 'syslog'] as const;
export type SourceKind = (typeof sourceKinds)[number];

/** Human label of each kind. */
export const sourceKindLabels: Readonly<Record<SourceKind, string>> = {
  modsecurity: 'ModSecurity audit log',
  json: 'JSON lines',
  syslog: 'Syslog (RFC 5424)',
};

/** The kinds as a form's options, in order. */
export const sourceKindOptions: readonly { readonly value: SourceKind; readonly label: string }[] = sourceKinds.map(
  (value) => ({ value, label: sourceKindLabels[value] }),
);
