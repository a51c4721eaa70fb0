import { FirewallSettings } from '../../../../contract/firewall-settings.ts';
import { defaultFirewallSettings } from '../../../../contract/firewalls.ts';
import { loadCrsCatalog } from '../engine/crs-catalog.ts';
import { nginxCheck } from '../engine/nginx-check.ts';
import { compileFirewall } from './compile.ts';
import { UnsafeValueError } from './escape.ts';

// Values that try to break out of their place, put where the compiler writes user values, past the contract (which
// refuses most of them): the compiler must either refuse them (UnsafeValueError) or write them so that the files have
// exactly the directives a harmless value gives, and still pass nginx -t.

const catalog = loadCrsCatalog();
const now = new Date('2026-01-01T00:00:00Z');

const base = FirewallSettings.parse({
  ...defaultFirewallSettings,
  name: 'Base',
  hostnames: ['base.example.com'],
  upstream: 'http://127.0.0.1:3000',
  mode: 'block',
  exclusions: [
    { ruleId: 942100, path: '/x', method: 'GET', target: 'ARGS:x', comment: 'x' },
    { ruleId: 942101, comment: 'x' },
  ],
  customRules: [
    {
      name: 'x',
      enabled: true,
      action: 'block',
      conditions: [
        { field: 'header', header: 'X-A', operator: 'equals', value: 'x' },
        { field: 'path', operator: 'startsWith', value: 'x' },
        { field: 'query', operator: 'contains', value: ['x', 'x'] },
        { field: 'userAgent', operator: 'regex', value: 'x' },
      ],
    },
  ],
  rateLimits: [{ path: '/x', requests: 2, windowSeconds: 1, action: 'block' }],
});

type Place = { name: string; put: (settings: FirewallSettings, value: string) => void };

/** Every place a free-text user value is written (escaped, not refused). */
const escapedPlaces: Place[] = [
  {
    name: 'exclusion path',
    put: (s, v) => {
      if (s.exclusions[0]) s.exclusions[0].path = `/${v}`;
    },
  },
  {
    name: 'exclusion method',
    put: (s, v) => {
      if (s.exclusions[0]) s.exclusions[0].method = v;
    },
  },
  {
    name: 'exclusion comment (scoped)',
    put: (s, v) => {
      if (s.exclusions[0]) s.exclusions[0].comment = v;
    },
  },
  {
    name: 'exclusion comment (global)',
    put: (s, v) => {
      if (s.exclusions[1]) s.exclusions[1].comment = v;
    },
  },
  {
    name: 'custom rule name',
    put: (s, v) => {
      if (s.customRules[0]) s.customRules[0].name = v;
    },
  },
  ...[0, 1, 2, 3].map((index) => ({
    name: `custom rule condition ${index} value`,
    put: (s: FirewallSettings, v: string) => {
      const condition = s.customRules[0]?.conditions[index];
      if (condition) condition.value = Array.isArray(condition.value) ? ['x', v] : v;
    },
  })),
  {
    name: 'rate limit path',
    put: (s, v) => {
      if (s.rateLimits[0]) s.rateLimits[0].path = `/${v}`;
    },
  },
  {
    name: 'upstream',
    put: (s, v) => {
      s.upstream = `http://${v}.example:3000`;
    },
  },
  {
    name: 'firewall name',
    put: (s, v) => {
      s.name = v;
    },
  },
];

/** Places whose values must match a pattern: anything else is refused. */
const checkedPlaces: Place[] = [
  {
    name: 'host name',
    put: (s, v) => {
      s.hostnames = [v];
    },
  },
  {
    name: 'trusted proxy',
    put: (s, v) => {
      s.trustedProxies = [`10.0.0.0/8${v}`];
    },
  },
  {
    name: 'ip deny entry',
    put: (s, v) => {
      s.ipDeny = [{ cidr: `10.0.0.1${v}` }];
    },
  },
  {
    name: 'exclusion target',
    put: (s, v) => {
      if (s.exclusions[0]) s.exclusions[0].target = `ARGS:${v}`;
    },
  },
  {
    name: 'header name',
    put: (s, v) => {
      if (s.customRules[0]?.conditions[0]) s.customRules[0].conditions[0].header = `X${v}`;
    },
  },
  {
    name: 'ip condition',
    put: (s, v) => {
      if (s.customRules[0]) s.customRules[0].conditions[0] = { field: 'ip', operator: 'inCidr', value: `1.2.3.4${v}` };
    },
  },
  {
    name: 'country condition',
    put: (s, v) => {
      if (s.customRules[0]) s.customRules[0].conditions[0] = { field: 'country', operator: 'equals', value: `F${v}` };
    },
  },
  {
    name: 'country block',
    put: (s, v) => {
      s.countryBlock = [`F${v}`];
    },
  },
];

const hostile = [
  '"',
  "'",
  '\\',
  'a\\',
  '\\"',
  ';',
  '{',
  '}',
  '$host',
  '%{tx.anomaly_score}',
  '#',
  '"; return 200; }',
  '"; } server { listen 81; location / { return 200; ',
  '" "id:1,phase:1,allow"',
  "',deny,status:200,msg:'",
  'x\nSecRuleEngine Off',
  'x\r\ninclude /etc/passwd;',
  'x\\\nSecRuleEngine Off',
  'nul\u0000byte',
  'caf\u00e9 \u2028 \ud83d\udd25',
];

function compileWith(place: Place, value: string) {
  const settings = structuredClone(base);
  place.put(settings, value);
  return compileFirewall({ firewallId: '00000000-0000-4000-8000-0000000000ff', settings, catalog, now });
}

/** True when the compiler refuses the value in that place. */
function refusedBy(place: Place, value: string): boolean {
  try {
    compileWith(place, value);
    return false;
  } catch (error) {
    if (error instanceof UnsafeValueError) return true;
    throw error;
  }
}

/** Directive name, quotes (single ones in ModSecurity actions too) and unquoted `;{}` of each non-comment line: what a value could add to. */
function shape(text: string, modsecurity: boolean): string[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.trimStart().startsWith('#'))
    .map((line) => {
      let quotes = 0;
      let singles = 0;
      let marks = '';
      let quoted = false;
      for (let index = 0; index < line.length; index++) {
        const char = line[index];
        if (char === '\\') index++;
        else if (char === '"') {
          quoted = !quoted;
          quotes++;
        } else if (char === "'" && (modsecurity || !quoted)) singles++;
        else if (!quoted && (char === ';' || char === '{' || char === '}')) marks += char;
      }
      return `${line.trim().split(/\s+/)[0]} ${quotes} ${singles} ${marks}`;
    });
}

function configShape(files: Record<string, string>): Record<string, string[]> {
  return Object.fromEntries(
    ['http.conf', 'server.conf', 'modsecurity.conf'].map((name) => [
      name,
      shape(files[name] ?? '', name === 'modsecurity.conf'),
    ]),
  );
}

describe('hostile values', () => {
  const harmless = Object.fromEntries(
    escapedPlaces.map((place) => [place.name, configShape(compileWith(place, 'x').files)]),
  );

  describe.each(escapedPlaces)('in the $name', (place) => {
    test.each(hostile)('%j is refused or adds no directive', (value) => {
      let files: Record<string, string>;
      try {
        files = compileWith(place, value).files;
      } catch (error) {
        expect(error).toBeInstanceOf(UnsafeValueError);
        return;
      }
      expect(configShape(files)).toEqual(harmless[place.name]);
    });
  });

  describe.each(checkedPlaces)('in the $name', (place) => {
    test.each(hostile)('%j is refused', (value) => {
      expect(() => compileWith(place, value)).toThrow(UnsafeValueError);
    });
  });

  test.each(hostile.filter((value) => ![...value].some((char) => char.charCodeAt(0) < 0x20)))(
    '%j everywhere at once passes nginx -t',
    async (value) => {
      const settings = structuredClone(base);
      for (const place of escapedPlaces.filter((each) => refusedBy(each, value) === false)) place.put(settings, value);
      const { files } = compileFirewall({
        firewallId: '00000000-0000-4000-8000-0000000000ff',
        settings,
        catalog,
        now,
      });
      expect(await nginxCheck(files)).toEqual({ ok: true });
    },
  );
});
