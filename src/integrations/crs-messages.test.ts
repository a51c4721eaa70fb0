import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { CRS_RULES_DIR } from '../../contract/constants/crs-messages.ts';
import { GET } from '../pages/crs-messages.json.ts';
import { crsMessagesJson, crsMessagesOf, parseCrsRules, readCrsMessages } from './crs-messages.ts';

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

/** A few rules as CRS writes them: continuation lines, a chain, a rule without msg, escaped quotes, comments. */
const SAMPLE = String.raw`
# -=[ A comment with msg:'not a rule' and id:1 ]=-
#SecRule ARGS "@rx x" "id:999999,msg:'commented out'"

SecRule REQUEST_COOKIES|ARGS_NAMES|ARGS "@detectSQLi" \
    "id:942100,\
    phase:2,\
    block,\
    t:none,t:utf8toUnicode,\
    msg:'SQL Injection Attack Detected via libinjection',\
    logdata:'Matched Data: %{TX.0} found within %{MATCHED_VAR_NAME}',\
    tag:'attack-sqli',\
    severity:'CRITICAL'"

SecRule REQUEST_HEADERS:x-up-devcap-post-charset "@rx ^(.*)$" \
    "id:920490,\
    phase:1,\
    msg:'Request header x-up-devcap-post-charset detected in combination with prefix \'UP\' to User-Agent',\
    chain"
    SecRule REQUEST_HEADERS:User-Agent "@rx ^(?i)up" \
        "t:none,\
        msg:'a chained rule has no id of its own'"

SecRule TX:EXECUTING_PARANOIA_LEVEL "@lt 1" "id:942011,phase:1,pass,nolog,skipAfter:END-REQUEST-942"

SecAction \
    "id:901001,\
    phase:1,\
    msg:'Sampling: %{TX.sampling_percentage} percent'"
`;

test('each rule with an id and a msg, across its continuation lines; chained, commented and msg-less rules left out', () => {
  expect(parseCrsRules(SAMPLE)).toEqual({
    '942100': 'SQL Injection Attack Detected via libinjection',
    '920490': "Request header x-up-devcap-post-charset detected in combination with prefix 'UP' to User-Agent",
    '901001': 'Sampling: %{TX.sampling_percentage} percent',
  });
});

test('CRLF line ends and a last line without a newline', () => {
  expect(parseCrsRules('SecRule ARGS "@rx a" \\\r\n  "id:1,\\\r\n  msg:\'one\'"')).toEqual({ '1': 'one' });
});

test('several files make one table ordered by rule id', () => {
  const table = crsMessagesOf([`SecAction "id:920100,msg:'b'"`, `SecAction "id:911100,msg:'a'"`]);
  expect(Object.entries(table)).toEqual([
    ['911100', 'a'],
    ['920100', 'b'],
  ]);
});
