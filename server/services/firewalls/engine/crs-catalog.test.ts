import { loadCrsCatalog, parseCrsCatalog, ruleIdsOf } from './crs-catalog.ts';

describe('the installed CRS (Debian modsecurity-crs)', () => {
  const catalog = loadCrsCatalog();

  test('its version and set-up version', () => {
    expect(catalog.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(catalog.setupVersion).toBe(Number(catalog.version.replaceAll('.', '')));
  });

  test.each([
    ['REQUEST-942-APPLICATION-ATTACK-SQLI', 'SQL injection', true],
    ['REQUEST-941-APPLICATION-ATTACK-XSS', 'Cross-site scripting (XSS)', true],
    ['REQUEST-920-PROTOCOL-ENFORCEMENT', 'Protocol enforcement', true],
    ['REQUEST-901-INITIALIZATION', 'Initialisation', false],
    ['REQUEST-949-BLOCKING-EVALUATION', 'Inbound blocking evaluation', false],
    ['RESPONSE-980-CORRELATION', 'Correlation', false],
    ['REQUEST-903.9002-WORDPRESS-EXCLUSION-RULES', 'WordPress exclusions', false],
  ])('group %s is "%s" (optional: %s)', (name, title, optional) => {
    const group = catalog.groups.find((each) => each.name === name);
    expect(group).toMatchObject({ name, title, optional, file: `rules/${name}.conf` });
  });

  test.each([
    [942100, 'REQUEST-942-APPLICATION-ATTACK-SQLI'],
    [941100, 'REQUEST-941-APPLICATION-ATTACK-XSS'],
    [949110, 'REQUEST-949-BLOCKING-EVALUATION'],
    [920350, 'REQUEST-920-PROTOCOL-ENFORCEMENT'],
    [901001, 'REQUEST-901-INITIALIZATION'],
  ])('rule %i belongs to %s', (id, group) => {
    expect(catalog.ruleGroup.get(id)).toBe(group);
    expect(catalog.ruleIds.has(id)).toBe(true);
  });

  test('unknown ids are not in it, the groups are in load order and every group is readable', () => {
    expect(catalog.ruleIds.has(942_999)).toBe(false);
    expect(catalog.ruleIds.has(4_200_000)).toBe(false);
    const names = catalog.groups.map((group) => group.name);
    expect(names).toEqual([...names].sort());
    expect(catalog.ruleIds.size).toBeGreaterThan(500);
    for (const group of catalog.groups) expect(group.title).not.toMatch(/^[A-Z-]+$/);
  });

  test('the six application exclusion packages', () => {
    expect([...catalog.applications].sort()).toEqual([
      'cpanel',
      'dokuwiki',
      'drupal',
      'nextcloud',
      'wordpress',
      'xenforo',
    ]);
  });

  test('is read once', () => {
    expect(loadCrsCatalog()).toBe(catalog);
  });
});

describe('parseCrsCatalog', () => {
  const setup = 'SecComponentSignature "OWASP_CRS/4.1.0"\nSecRule &TX:x "@eq 0" "id:901001,phase:1,pass"\n';

  test('reads made-up files: ids outside comments, unknown groups titled from their name, data files ignored', () => {
    const catalog = parseCrsCatalog([
      { name: 'REQUEST-901-INITIALIZATION.conf', text: setup },
      {
        name: 'REQUEST-925-NEW-THING.conf',
        text: '# SecRule X "y" "id:925999"\nSecRule ARGS "@rx a" \\\n    "id:925001,\\\n    phase:2,block"\nSecRule ARGS "@rx b" "id:\'925002\',phase:2"\n',
      },
      { name: 'scanners.data', text: 'id:1' },
    ]);
    expect(catalog.version).toBe('4.1.0');
    expect(catalog.setupVersion).toBe(410);
    expect(catalog.groups.map((group) => [group.name, group.title, group.ruleIds])).toEqual([
      ['REQUEST-901-INITIALIZATION', 'Initialisation', [901001]],
      ['REQUEST-925-NEW-THING', 'New thing', [925001, 925002]],
    ]);
  });

  test('refuses a folder without a CRS version', () => {
    expect(() => parseCrsCatalog([{ name: 'REQUEST-942-X.conf', text: '' }])).toThrow(/No CRS version/);
  });

  test.each([
    ['SecRule A "b" "id:1,phase:1"', [1]],
    ['SecRule A "b" "phase:1,id:\'22\'"', [22]],
    ['SecAction \\\n  "id:900990,\\\n  pass"', [900990]],
    ['# "id:5"', []],
  ])('ruleIdsOf(%j) is %j', (text, expected) => {
    expect(ruleIdsOf(text)).toEqual(expected);
  });
});
