/**
 * Build-time reading of the installed CRS's rule messages, for scripts/crs-messages.ts and /crs-messages.json: its
 * rules files parsed (text in, table out).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CRS_RULES_DIR } from '../../contract/constants/crs-messages.ts';

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

/** The messages of every `*.conf` file of a rules directory (file name order), or null where there is none. */
export function readCrsMessages(dir: string = CRS_RULES_DIR): Record<string, string> | null {
  if (!existsSync(dir)) return null;
  const files = readdirSync(dir)
    .filter((name) => name.endsWith('.conf'))
    .sort();
  if (files.length === 0) return null;
  return crsMessagesOf(files.map((name) => readFileSync(join(dir, name), 'utf8')));
}

/** The table as the committed fallback holds it: two-space JSON and a final newline. */
export function crsMessagesJson(messages: Readonly<Record<string, string>>): string {
  return `${JSON.stringify(messages, null, 2)}\n`;
}
