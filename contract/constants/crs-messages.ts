/**
 * The OWASP CRS rule messages (rule id → `msg`), so a rule id in the console reads as what it detects. The table is
 * read from the installed CRS at build time (scripts/crs-messages.ts, src/pages/crs-messages.json.ts); the
 * committed crs-messages.json beside this file is the fallback where no CRS is installed. Pure: text in, table out.
 */

/** Rule id (digits) → the rule's message. */
export type CrsMessages = Readonly<Record<string, string>>;

/** The installed CRS's rules (Debian's `modsecurity-crs`). */
export const CRS_RULES_DIR = '/usr/share/modsecurity-crs/rules';

/** Where the site serves the table. */
export const CRS_MESSAGES_URL = '/crs-messages.json';

/** The directives that start a rule: `SecRule` (a chained one has no id of its own) and `SecAction`. */
const ruleStart = /^\s*(SecRule|SecAction)\b/;
const idAction = /(?:^|[",\s])id:(\d+)/;
// Single-quoted, with \' inside it (CRS escapes quotes so).
const msgAction = /(?:^|[",\s])msg:'((?:[^'\\]|\\.)*)'/;

/**
 * The messages of one rules file: each SecRule or SecAction (its continuation lines, ending in `\`, joined; comment
 * lines skipped) with both an `id:` and a `msg:'…'` gives `id → msg`; rules without a message are left out.
 */
export function parseCrsRules(text: string): Record<string, string> {
  const statements: string[] = [];
  let current: string | null = null;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trimEnd();
    if (current === null && /^\s*#/.test(line)) continue;
    const continues = line.endsWith('\\');
    const body = continues ? line.slice(0, -1) : line;
    current = current === null ? body : `${current} ${body.trim()}`;
    if (!continues) {
      statements.push(current);
      current = null;
    }
  }
  if (current !== null) statements.push(current);
  const messages: Record<string, string> = {};
  for (const statement of statements) {
    if (!ruleStart.test(statement)) continue;
    const id = idAction.exec(statement)?.[1];
    const msg = msgAction.exec(statement)?.[1];
    if (id && msg !== undefined) messages[id] = msg.replace(/\\(.)/g, '$1');
  }
  return messages;
}

/** The messages of several rules files as one table, ordered by rule id (a later file's rule wins a clash). */
export function crsMessagesOf(texts: readonly string[]): Record<string, string> {
  const all: Record<string, string> = {};
  for (const text of texts) Object.assign(all, parseCrsRules(text));
  const sorted: Record<string, string> = {};
  for (const id of Object.keys(all).sort((a, b) => Number(a) - Number(b))) sorted[id] = all[id] ?? '';
  return sorted;
}
