/** Build-time reading of the installed CRS's rule messages, for scripts/crs-messages.ts and /crs-messages.json. */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CRS_RULES_DIR, crsMessagesOf } from '../../contract/constants/crs-messages.ts';

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
