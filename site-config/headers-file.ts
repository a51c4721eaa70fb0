/** The `_headers` file static hosts read (Netlify, Cloudflare Pages), also applied by the project's own server. */

export interface HeaderRule {
  /** Path pattern: exact, or ending in `*` for a prefix. */
  readonly path: string;
  readonly headers: ReadonlyArray<readonly [string, string]>;
}

/** Serialises header rules into `_headers` syntax. */
export function toHeadersFile(rules: readonly HeaderRule[]): string {
  return `${rules
    .map((rule) => [rule.path, ...rule.headers.map(([name, value]) => `  ${name}: ${value}`)].join('\n'))
    .join('\n')}\n`;
}

/** Parses `_headers` syntax. */
export function parseHeadersFile(text: string): HeaderRule[] {
  const rules: { path: string; headers: [string, string][] }[] = [];
  for (const raw of text.split('\n')) {
    if (raw.trim() === '' || raw.trim().startsWith('#')) continue;
    if (!/^\s/.test(raw)) {
      rules.push({ path: raw.trim(), headers: [] });
      continue;
    }
    const current = rules.at(-1);
    const colon = raw.indexOf(':');
    if (!current || colon < 0) throw new Error(`Unsupported _headers line: "${raw}"`);
    current.headers.push([raw.slice(0, colon).trim(), raw.slice(colon + 1).trim()]);
  }
  return rules;
}

/** Headers that apply to a path, later rules adding to earlier ones. */
export function headersFor(rules: readonly HeaderRule[], pathname: string): [string, string][] {
  const out: [string, string][] = [];
  for (const rule of rules) {
    const matches = rule.path.endsWith('*') ? pathname.startsWith(rule.path.slice(0, -1)) : pathname === rule.path;
    if (matches) for (const [name, value] of rule.headers) out.push([name, value]);
  }
  return out;
}
