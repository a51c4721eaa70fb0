/**
 * The OWASP CRS 3.3.4 rules the demo traffic fires, with the message, file, line, severity and tags
 * that libmodsecurity3 writes for them into its JSON audit log (see server/services/ingest/fixtures/).
 */

/** One CRS rule as it appears in `transaction.messages[].details`. */
export type CrsRule = {
  id: number;
  message: string;
  file: string;
  line: number;
  /** ModSecurity severity: 2 critical, 3 error, 4 warning, 5 notice. */
  severity: 2 | 3 | 4 | 5;
  tags: string[];
};

const dir = '/usr/share/modsecurity-crs/rules';
const common = ['application-multi', 'language-multi', 'platform-multi'];

function rules(file: string, tags: string[], list: [number, number, string, CrsRule['severity']?][]): CrsRule[] {
  return list.map(([id, line, message, severity]) => ({
    id,
    message,
    file: `${dir}/${file}`,
    line,
    severity: severity ?? 2,
    tags,
  }));
}

export const sqliRules = rules(
  'REQUEST-942-APPLICATION-ATTACK-SQLI.conf',
  [...common, 'attack-sqli', 'paranoia-level/1', 'OWASP_CRS', 'capec/1000/152/248/66', 'PCI/6.5.2'],
  [
    [942100, 46, 'SQL Injection Attack Detected via libinjection'],
    [942140, 132, 'SQL Injection Attack: Common DB Names Detected'],
    [942160, 178, 'Detects blind sqli tests using sleep() or benchmark()'],
    [942190, 260, 'Detects MSSQL code execution and information gathering attempts'],
    [942230, 345, 'Detects conditional SQL injection attempts'],
    [942260, 410, 'Detects basic SQL authentication bypass attempts 2/3'],
    [942270, 433, 'Looking for basic sql injection. Common attack string for mysql, oracle and others.'],
    [942360, 669, 'Detects concatenated basic SQL injection and SQLLFI attempts'],
  ],
);

export const xssRules = rules(
  'REQUEST-941-APPLICATION-ATTACK-XSS.conf',
  [...common, 'attack-xss', 'paranoia-level/1', 'OWASP_CRS', 'capec/1000/152/242'],
  [
    [941100, 38, 'XSS Attack Detected via libinjection'],
    [941110, 64, 'XSS Filter - Category 1: Script Tag Vector'],
    [941130, 110, 'XSS Filter - Category 3: Attribute Vector'],
    [941140, 136, 'XSS Filter - Category 4: Javascript URI Vector'],
    [941160, 181, 'NoScript XSS InjectionChecker: HTML Injection'],
    [941170, 206, 'NoScript XSS InjectionChecker: Attribute Injection'],
  ],
);

export const lfiRules = rules(
  'REQUEST-930-APPLICATION-ATTACK-LFI.conf',
  [...common, 'attack-lfi', 'paranoia-level/1', 'OWASP_CRS', 'capec/1000/255/153/126'],
  [
    [930100, 30, 'Path Traversal Attack (/../)'],
    [930110, 53, 'Path Traversal Attack (/../)'],
    [930120, 79, 'OS File Access Attempt'],
    [930130, 105, 'Restricted File Access Attempt'],
  ],
);

export const rceRules = rules(
  'REQUEST-932-APPLICATION-ATTACK-RCE.conf',
  [
    'application-multi',
    'language-shell',
    'platform-unix',
    'attack-rce',
    'paranoia-level/1',
    'OWASP_CRS',
    'capec/1000/152/248/88',
    'PCI/6.5.2',
  ],
  [
    [932100, 103, 'Remote Command Execution: Unix Command Injection'],
    [932105, 159, 'Remote Command Execution: Unix Command Injection'],
    [932150, 383, 'Remote Command Execution: Direct Unix Command Execution'],
    [932160, 481, 'Remote Command Execution: Unix Shell Code Found'],
    [932170, 506, 'Remote Command Execution: Shellshock (CVE-2014-6271)'],
  ],
);

export const phpRules = rules(
  'REQUEST-933-APPLICATION-ATTACK-PHP.conf',
  [
    'application-multi',
    'language-php',
    'platform-multi',
    'attack-injection-php',
    'paranoia-level/1',
    'OWASP_CRS',
    'capec/1000/152/242',
  ],
  [
    [933100, 36, 'PHP Injection Attack: PHP Open Tag Found'],
    [933120, 90, 'PHP Injection Attack: Configuration Directive Found'],
    [933140, 142, 'PHP Injection Attack: I/O Stream Found'],
    [933150, 166, 'PHP Injection Attack: High-Risk PHP Function Name Found'],
    [933160, 197, 'PHP Injection Attack: High-Risk PHP Function Call Found'],
  ],
);

export const scannerRules = rules(
  'REQUEST-913-SCANNER-DETECTION.conf',
  [...common, 'attack-reputation-scanner', 'paranoia-level/1', 'OWASP_CRS', 'capec/1000/118/224/541/310', 'PCI/6.5.10'],
  [
    [913100, 34, 'Found User-Agent associated with security scanner'],
    [913120, 82, 'Found request filename/argument associated with security scanner'],
  ],
);

export const protocolRules = rules(
  'REQUEST-920-PROTOCOL-ENFORCEMENT.conf',
  [...common, 'attack-protocol', 'paranoia-level/1', 'OWASP_CRS', 'capec/1000/210/272', 'PCI/6.5.10'],
  [
    [920170, 229, 'GET or HEAD Request with Body Content.'],
    [920270, 555, 'Invalid character in request (null character)'],
    [920280, 580, 'Request Missing a Host Header', 4],
    [920350, 700, 'Host header is a numeric IP address', 4],
    [920440, 1015, 'URL file extension is restricted by policy'],
  ],
);

/** The blocking evaluation: fires when the inbound anomaly score reaches the threshold (5). */
export const anomalyRule: CrsRule = {
  id: 949110,
  message: 'Inbound Anomaly Score Exceeded',
  file: `${dir}/REQUEST-949-BLOCKING-EVALUATION.conf`,
  line: 81,
  severity: 2,
  tags: [...common, 'attack-generic'],
};

/** CRS anomaly points per ModSecurity severity (crs-setup.conf defaults). */
export const anomalyPoints: Record<CrsRule['severity'], number> = { 2: 5, 3: 4, 4: 3, 5: 2 };

/** A rule by id, for the attack catalogue. */
export function rule(id: number): CrsRule {
  for (const list of [sqliRules, xssRules, lfiRules, rceRules, phpRules, scannerRules, protocolRules]) {
    const found = list.find((r) => r.id === id);
    if (found) return found;
  }
  throw new Error(`No CRS rule ${id} in the demo catalogue`);
}
