import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { CRS_RULES_DIR } from '../../contract/constants/crs-messages.ts';
import { GET } from '../pages/crs-messages.json.ts';
import { crsMessagesJson, readCrsMessages } from './crs-messages.ts';

const committed = resolve(import.meta.dirname, '../../contract/constants/crs-messages.json');

// The committed fallback is the installed CRS's table (run `node scripts/crs-messages.ts --write` after an upgrade).
test.skipIf(!existsSync(CRS_RULES_DIR))('the installed CRS gives exactly the committed table', () => {
  const installed = readCrsMessages();
  expect(installed).not.toBeNull();
  expect(crsMessagesJson(installed ?? {})).toBe(readFileSync(committed, 'utf8'));
});

test('the committed table knows the rules the console shows most', () => {
  const table = JSON.parse(readFileSync(committed, 'utf8')) as Record<string, string>;
  expect(table['942100']).toBe('SQL Injection Attack Detected via libinjection');
  expect(table['949110']).toBe('Inbound Anomaly Score Exceeded (Total Score: %{TX.ANOMALY_SCORE})');
  expect(Object.keys(table).length).toBeGreaterThan(200);
});

test('no rules directory: null, so the site serves the committed table', () => {
  expect(readCrsMessages('/nonexistent/crs/rules')).toBeNull();
});

test('/crs-messages.json answers the table as JSON', async () => {
  const res = await (GET as () => Response)();
  expect(res.headers.get('content-type')).toContain('application/json');
  const body = await res.json();
  expect(body['942100']).toBe('SQL Injection Attack Detected via libinjection');
});
