/**
 * Writes the CRS rule messages (rule id → msg) of the installed rules as JSON: to stdout, or with `--write` to
 * contract/constants/crs-messages.json, the fallback the site serves where no CRS is installed at build time.
 * Run it after the Debian package `modsecurity-crs` changes version.
 *
 *   node scripts/crs-messages.ts [--write] [rules-dir]   (default /usr/share/modsecurity-crs/rules)
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CRS_RULES_DIR } from '../contract/constants/crs-messages.ts';
import { crsMessagesJson, readCrsMessages } from '../src/integrations/crs-messages.ts';

const args = process.argv.slice(2);
const dir = args.find((arg) => !arg.startsWith('--')) ?? CRS_RULES_DIR;
const messages = readCrsMessages(dir);
if (!messages) {
  console.error(`No CRS rules (*.conf) in ${dir}: install the modsecurity-crs package or name the rules directory.`);
  process.exit(1);
}
const text = crsMessagesJson(messages);
if (args.includes('--write')) {
  const out = fileURLToPath(new URL('../contract/constants/crs-messages.json', import.meta.url));
  writeFileSync(out, text);
  console.error(`${Object.keys(messages).length} rule messages written to ${out}`);
} else {
  process.stdout.write(text);
}
