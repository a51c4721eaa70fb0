/**
 * The layers point one way (pages → islands → stores → lib → contract; routes → services → db), and the pieces
 * that exist once stay single. Each rule reads the source tree, so a new file that breaks it fails here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';

const root = resolve(import.meta.dirname, '..');

/** Every .ts/.tsx/.astro file under a folder, as paths relative to the repository. */
function sources(folder: string): string[] {
  return readdirSync(join(root, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(ts|tsx|astro|js|mjs)$/.test(entry.name))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)));
}

const isTest = (file: string) => /\.test\.tsx?$/.test(file) || file.endsWith('test-api.ts');

/** The module specifiers a file imports, with whether the import carries values (not `import type`). */
function imports(file: string): { from: string; values: boolean }[] {
  const text = readFileSync(join(root, file), 'utf8');
  const found: { from: string; values: boolean }[] = [];
  for (const match of text.matchAll(/^\s*(import|export)\s+(type\s+)?([^'";]*?)\s*from\s+['"]([^'"]+)['"]/gm)) {
    const names = match[3] ?? '';
    const onlyTypes = match[2] !== undefined || /^\{\s*(type\s+[\w$]+(\s+as\s+[\w$]+)?\s*,?\s*)+\}$/.test(names);
    found.push({ from: match[4] ?? '', values: !onlyTypes });
  }
  for (const match of text.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm))
    found.push({ from: match[1] ?? '', values: true });
  for (const match of text.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g))
    found.push({ from: match[1] ?? '', values: true });
  return found;
}

/** The repository path an import points at, or null for a package. */
function target(file: string, from: string): string | null {
  return from.startsWith('.') ? relative(root, resolve(root, file, '..', from)) : null;
}

describe('layers', () => {
  test('server/ never imports from src/', () => {
    const offenders = sources('server').flatMap((file) =>
      imports(file)
        .map(({ from }) => target(file, from))
        .filter((path) => path?.startsWith('src/'))
        .map((path) => `${file} → ${path}`),
    );
    expect(offenders).toEqual([]);
  });

  test('site-config/ and contract/ import from neither src/ nor server/', () => {
    const offenders = [...sources('site-config'), ...sources('contract')].flatMap((file) =>
      imports(file)
        .map(({ from }) => target(file, from))
        .filter((path) => path?.startsWith('src/') || path?.startsWith('server/'))
        .map((path) => `${file} → ${path}`),
    );
    expect(offenders).toEqual([]);
  });

  test('src/lib/ never imports src/stores/ (stores build on lib, not the other way)', () => {
    const offenders = sources('src/lib').flatMap((file) =>
      imports(file)
        .map(({ from }) => target(file, from))
        .filter((path) => path?.startsWith('src/stores/'))
        .map((path) => `${file} → ${path}`),
    );
    expect(offenders).toEqual([]);
  });

  test('routes never import other routes', () => {
    const offenders = sources('server/routes')
      .filter((file) => !isTest(file))
      .flatMap((file) =>
        imports(file)
          .map(({ from }) => target(file, from))
          .filter((path) => path?.startsWith('server/routes/'))
          .map((path) => `${file} → ${path}`),
      );
    expect(offenders).toEqual([]);
  });
});

describe('the browser bundle', () => {
  const browser = ['src/islands', 'src/stores', 'src/lib', 'src/pages', 'src/layouts', 'src/components']
    .flatMap(sources)
    .filter((file) => !isTest(file));

  /** Whether a contract module carries zod into what imports it: itself, or through the modules it takes values from. */
  const pullsZod = (() => {
    const known = new Map<string, boolean>();
    const visit = (file: string): boolean => {
      const seen = known.get(file);
      if (seen !== undefined) return seen;
      known.set(file, false);
      const valueImports = imports(file).filter(({ values }) => values);
      const pulls =
        valueImports.some(({ from }) => /^zod(\/|$)/.test(from)) ||
        valueImports.some(({ from }) => {
          const path = target(file, from);
          return path?.startsWith('contract/') === true && /\.ts$/.test(path) && visit(path);
        });
      known.set(file, pulls);
      return pulls;
    };
    return visit;
  })();

  test('islands take contract values only from modules that carry no zod (types may come from anywhere)', () => {
    const offenders = browser.flatMap((file) =>
      imports(file)
        .filter(({ values }) => values)
        .map(({ from }) => target(file, from))
        .filter((path) => path?.startsWith('contract/') && /\.ts$/.test(path) && pullsZod(path))
        .map((path) => `${file} → ${path}`),
    );
    expect(offenders).toEqual([]);
  });

  test('contract/constants/, contract/query/ and the rules islands share carry no zod', () => {
    const zodFree = [
      ...sources('contract/constants'),
      ...sources('contract/query'),
      ...[
        'billing',
        'crs',
        'dashboard-filter',
        'dashboard-rules',
        'limits',
        'passwords',
        'plans',
        'rate-limits',
        'roles',
        'source-kinds',
      ].map((name) => `contract/${name}.ts`),
    ].filter((file) => !isTest(file));
    expect(zodFree.filter(pullsZod)).toEqual([]);
  });

  test('contract/constants/ holds values, not functions (they live in the module of their concept)', () => {
    const offenders = sources('contract/constants')
      .filter((file) => !isTest(file))
      .filter((file) =>
        /^(export )?(async )?function\b|^(export )?const \w+(\s*:[^=]+)?\s*=\s*(async\s*)?(\([^)]*\)|\w+)\s*(:[^=]+)?=>/m.test(
          readFileSync(join(root, file), 'utf8'),
        ),
      );
    expect(offenders).toEqual([]);
  });

  test('only lib/api.ts calls the API by hand; every island goes through its typed client', () => {
    const offenders = browser.filter((file) => {
      if (file === 'src/lib/api.ts') return false;
      const text = readFileSync(join(root, file), 'utf8');
      return /\bfetch\(/.test(text) && /\/api\b|apiBaseUrl|apiUrl/.test(text);
    });
    expect(offenders).toEqual([]);
  });

  test.each([
    ['the plans', 'contract/constants/plans.ts', /['"]free['"],\s*['"]pro['"],\s*['"]business['"]/],
    ['the roles', 'contract/constants/roles.ts', /['"]owner['"],\s*['"]admin['"],\s*['"]analyst['"],\s*['"]viewer['"]/],
    ['the source kinds', 'contract/constants/sources.ts', /['"]modsecurity['"],\s*['"]json['"],\s*['"]syslog['"]/],
    [
      'the severities',
      'contract/constants/events.ts',
      /['"]critical['"],\s*['"]high['"],\s*['"]medium['"],\s*['"]low['"]/,
    ],
    ['the export formats', 'contract/constants/events.ts', /\[\s*['"]ndjson['"],\s*['"]csv['"]\s*\]/],
  ])('%s are listed once, in %s', (_, home, pattern) => {
    const everywhere = ['src', 'server', 'contract'].flatMap(sources).filter((file) => !isTest(file));
    const listing = everywhere.filter((file) => pattern.test(readFileSync(join(root, file), 'utf8')));
    expect(listing).toEqual([home]);
  });
});

describe('one home each', () => {
  test('each store is exported by one module: $spaceId by stores/route.ts alone', () => {
    const exporters = browserFiles().filter((file) =>
      /^export\s+(const\s+\$spaceId\b|\{[^}]*\$spaceId\b[^}]*\})/m.test(readFileSync(join(root, file), 'utf8')),
    );
    expect(exporters).toEqual(['src/stores/route.ts']);
  });

  test('no two modules export a store of the same name', () => {
    const homes = new Map<string, string[]>();
    for (const file of browserFiles())
      for (const match of readFileSync(join(root, file), 'utf8').matchAll(
        /^export\s+(?:const\s+(\$\w+)|\{([^}]*)\})/gm,
      ))
        for (const name of match[1] ? [match[1]] : ((match[2] ?? '').match(/\$\w+/g) ?? []))
          homes.set(name, [...(homes.get(name) ?? []), file]);
    expect(
      [...homes].filter(([, files]) => files.length > 1).map(([name, files]) => `${name}: ${files.join(', ')}`),
    ).toEqual([]);
  });

  test('islands read URL parameters only through stores/route.ts', () => {
    const offenders = browserFiles().filter((file) => {
      if (file === 'src/stores/route.ts') return false;
      const text = readFileSync(join(root, file), 'utf8');
      return /location\.pathname/.test(text) && /matchRoute|paramsOf|space_id/.test(text);
    });
    expect(offenders).toEqual([]);
  });

  test('only shared/use-url-view.ts writes the browser history: view state in the URL goes through useUrlView', () => {
    // Besides the hook's own module, only the test helper writes it: visit() sets the address a test starts from.
    const allowed = ['src/islands/shared/use-url-view.ts', 'src/islands/shared/test-api.ts'];
    const offenders = sources('src').filter(
      (file) =>
        !/\.test\.tsx?$/.test(file) &&
        !allowed.includes(file) &&
        /\bhistory\.(replaceState|pushState)\b/.test(readFileSync(join(root, file), 'utf8')),
    );
    expect(offenders).toEqual([]);
  });

  /**
   * The island folders every screen may use, each generic (it knows no screen's data):
   * - app/: the error boundary and the store wiring every island is mounted with;
   * - charts/: the chart components, fed plain series by the screen that draws them;
   * - console/: the frame around every console screen (navigation, menu, user, space switch, the past-due banner);
   * - json-viewer/: a collapsible view of any JSON value;
   * - map/: the world map, fed points by the screen;
   * - markdown/: the Markdown renderer of notes and descriptions;
   * - theme/: the light/dark switch.
   * Every other folder but shared/ is a feature folder.
   */
  const genericIslands = ['app', 'charts', 'console', 'json-viewer', 'map', 'markdown', 'theme'];

  test('code shared by several screens lives in src/islands/shared/: a feature folder imports only itself, shared/ and the generic islands (styles and test helpers too)', () => {
    const islands = readdirSync(join(root, 'src/islands'), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && /\.(ts|tsx|astro|js|mjs|css)$/.test(entry.name))
      .map((entry) => relative(root, join(entry.parentPath, entry.name)));
    const folders = readdirSync(join(root, 'src/islands'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(genericIslands.filter((name) => !folders.includes(name))).toEqual([]);
    const offenders = islands.flatMap((file) => {
      const folder = file.split('/')[2] ?? '';
      if (folder === 'shared') return [];
      const text = readFileSync(join(root, file), 'utf8');
      const specifiers = file.endsWith('.css')
        ? [...text.matchAll(/@import\s+(?:url\()?['"]([^'"]+)['"]/g)].map((match) => match[1] ?? '')
        : imports(file).map(({ from }) => from);
      return specifiers
        .map((from) => target(file, from))
        .filter((path): path is string => path?.startsWith('src/islands/') === true)
        .filter((path) => {
          const other = path.split('/')[2] ?? '';
          return other !== folder && other !== 'shared' && !genericIslands.includes(other);
        })
        .map((path) => `${file} → ${path}`);
    });
    expect(offenders).toEqual([]);
  });

  test('generic islands import no feature folder', () => {
    const offenders = genericIslands
      .flatMap((name) => sources(`src/islands/${name}`))
      .flatMap((file) =>
        imports(file)
          .map(({ from }) => target(file, from))
          .filter((path): path is string => path?.startsWith('src/islands/') === true)
          .filter((path) => {
            const other = path.split('/')[2] ?? '';
            return other !== 'shared' && !genericIslands.includes(other);
          })
          .map((path) => `${file} → ${path}`),
      );
    expect(offenders).toEqual([]);
  });
});

describe('one of each on screen', () => {
  /** The islands' components (tests aside), with comments removed. */
  const components = sources('src/islands')
    .filter((file) => file.endsWith('.tsx') && !isTest(file))
    .map((file) => ({ file, code: readFileSync(join(root, file), 'utf8').replace(/^\s*(\*|\/\/|\/\*).*$/gm, '') }));
  const drawnOutside = (home: string, pattern: RegExp) =>
    components.filter(({ file, code }) => file !== home && pattern.test(code)).map(({ file }) => file);

  test('only shared/SeverityBadge.tsx renders a severity badge (the .sg-sev class)', () => {
    expect(drawnOutside('src/islands/shared/SeverityBadge.tsx', /\bsg-(\w+-)?sev\b/)).toEqual([]);
  });

  test('only shared/Sparkline.tsx draws a sparkline (an SVG line, or a component named one)', () => {
    expect(drawnOutside('src/islands/shared/Sparkline.tsx', /<polyline\b|\b(function|const)\s+\w*Sparkline\b/)).toEqual(
      [],
    );
  });

  test('only shared/DiffView.tsx renders a line diff (the .sg-diff classes)', () => {
    expect(drawnOutside('src/islands/shared/DiffView.tsx', /\bsg-diff/)).toEqual([]);
  });

  test('only shared/RetryButton.tsx renders a Retry button', () => {
    expect(drawnOutside('src/islands/shared/RetryButton.tsx', />\s*(Retry|Try again)\s*<\/button>/)).toEqual([]);
  });
});

describe('stores own their reads and writes', () => {
  test('invalidation names a store, never a string', () => {
    const offenders = browserFiles().filter((file) =>
      /\binvalidateApi\(\s*[^)]*['"`]/.test(readFileSync(join(root, file), 'utf8')),
    );
    expect(offenders).toEqual([]);
  });

  test("islands call the API only through their area's store module (src/stores/<area>.ts)", () => {
    const callers = sources('src/islands')
      .filter((file) => !isTest(file) && !/\/test-[\w-]+\.ts$/.test(file))
      .filter((file) =>
        /^import \{[^}]*\b(call|client)\b[^}]*\} from ['"][./]*lib\/api\.ts['"]/m.test(
          readFileSync(join(root, file), 'utf8'),
        ),
      );
    expect(callers).toEqual([]);
  });
});

describe('chart code loads when a chart draws', () => {
  test('the modules whose chunks astro.config.mjs names chart code are imported only by import(), tests aside', () => {
    const chartCode = ['src/islands/charts/Chart.tsx', 'src/islands/siem/EventHistogram.tsx'];
    const staticImport = /^\s*(?:import|export)\s+(?!type\s)(?:[^'";]*?\s*from\s+)?['"]([^'"]+)['"]/gm;
    const offenders = browserFiles().flatMap((file) =>
      [...readFileSync(join(root, file), 'utf8').matchAll(staticImport)]
        .map((match) => target(file, match[1] ?? ''))
        .filter((path) => path !== null && chartCode.includes(path))
        .map((path) => `${file} imports ${path}`),
    );
    expect(offenders).toEqual([]);
  });
});

function browserFiles(): string[] {
  return ['src/islands', 'src/stores', 'src/lib'].flatMap(sources).filter((file) => !isTest(file));
}

/** The text of every string and template literal of a TypeScript source (template parts without their `${…}`). */
function literals(text: string): string[] {
  const found: string[] = [];
  // What is open: a template (collecting), or a `${` inside one (counting braces until it closes).
  const stack: ({ kind: 'template'; text: string } | { kind: 'code'; braces: number })[] = [];
  let i = 0;
  while (i < text.length) {
    const top = stack[stack.length - 1];
    const c = text[i] ?? '';
    if (top?.kind === 'template') {
      if (c === '\\') {
        top.text += text.slice(i, i + 2);
        i += 2;
      } else if (c === '`') {
        found.push(top.text);
        stack.pop();
        i++;
      } else if (c === '$' && text[i + 1] === '{') {
        found.push(top.text);
        top.text = '';
        stack.push({ kind: 'code', braces: 0 });
        i += 2;
      } else {
        top.text += c;
        i++;
      }
      continue;
    }
    if (c === '/' && text[i + 1] === '/') {
      i = text.indexOf('\n', i);
      if (i < 0) break;
    } else if (c === '/' && text[i + 1] === '*') {
      i = text.indexOf('*/', i) + 2;
      if (i < 2) break;
    } else if (c === "'" || c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== c && text[j] !== '\n') j += text[j] === '\\' ? 2 : 1;
      found.push(text.slice(i + 1, j));
      i = j + 1;
    } else if (c === '`') {
      stack.push({ kind: 'template', text: '' });
      i++;
    } else {
      if (top?.kind === 'code' && c === '{') top.braces++;
      if (top?.kind === 'code' && c === '}') {
        if (top.braces === 0) stack.pop();
        else top.braces--;
      }
      i++;
    }
  }
  return found;
}

describe('one clock', () => {
  const serverCode = ['server', 'contract']
    .flatMap(sources)
    .filter((file) => !isTest(file) && !file.startsWith('server/test/'));

  test('no SQL the server sends reads the database clock', () => {
    const databaseClock =
      /\b(now|clock_timestamp|statement_timestamp|transaction_timestamp|timeofday)\s*\(\s*\)|\bcurrent_(timestamp|date|time)\b|\blocaltime(stamp)?\b/i;
    const offenders = serverCode.flatMap((file) =>
      literals(readFileSync(join(root, file), 'utf8'))
        .filter((literal) => databaseClock.test(literal))
        .map((literal) => `${file}: ${literal.trim().slice(0, 80)}`),
    );
    expect(offenders).toEqual([]);
  });

  test('no column takes its time from a default: the schema declares none', () => {
    const offenders = sources('server/db/schema').filter((file) =>
      /defaultNow\(|default\(sql`\s*(now|current_timestamp)/i.test(readFileSync(join(root, file), 'utf8')),
    );
    expect(offenders).toEqual([]);
  });

  test('only server/clock.ts reads the machine clock (the log line stamps and the connector, a program of its own, aside)', () => {
    const machineClock = /new Date\(\s*\)|Date\.now\(\)/;
    const allowed = (file: string) =>
      file === 'server/clock.ts' || file === 'server/services/shared/logger.ts' || file.startsWith('server/connector/');
    const offenders = serverCode.filter(
      (file) =>
        !allowed(file) && machineClock.test(readFileSync(join(root, file), 'utf8').replace(/^\s*(\*|\/\/).*$/gm, '')),
    );
    expect(offenders).toEqual([]);
  });

  test('the literal reader finds SQL inside nested templates', () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the source text read is a template with a `${…}`
    expect(literals('const a = sql`select ${b ? sql`now()` : x} from t`; // now()')).toEqual([
      'select ',
      'now()',
      ' from t',
    ]);
  });
});

describe('one firewall-change path', () => {
  const serverCode = sources('server').filter((file) => !isTest(file) && !file.startsWith('server/test/'));
  const home = 'server/services/firewalls/change.ts';
  /** The server files other than `home` and `allowed` whose code (comments aside) matches `pattern`. */
  const callers = (pattern: RegExp, allowed: string[] = []) =>
    serverCode.filter(
      (file) =>
        file !== home &&
        !allowed.includes(file) &&
        pattern.test(readFileSync(join(root, file), 'utf8').replace(/^\s*(\*|\/\/|\/\*).*$/gm, '')),
    );

  test('only change.ts stores a firewall version', () => {
    expect(callers(/\.insert\(\s*firewallVersions\s*\)/)).toEqual([]);
  });

  test('only change.ts syncs virtual patches with a firewall', () => {
    expect(callers(/(?<!function\s+)\bsyncVirtualPatches\(/)).toEqual([]);
  });

  test('only change.ts wakes the connectors of a changed firewall (the signal itself and the stale-files timer aside)', () => {
    const signal = [
      'server/services/firewalls/connector/version-signal.ts',
      'server/services/firewalls/connector/connector.ts',
    ];
    expect(callers(/(?<!function\s+)\bannounceVersion\(/, signal)).toEqual([]);
  });
});

describe('one shape per service', () => {
  const services = 'server/services';
  const domains = readdirSync(join(root, services), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
  const serviceCode = sources(services).filter((file) => !isTest(file));
  /** Server code other than tests, with comments removed. */
  const serverCode = sources('server')
    .filter((file) => !isTest(file) && !file.startsWith('server/test/'))
    .map((file) => ({ file, code: readFileSync(join(root, file), 'utf8').replace(/^\s*(\*|\/\/|\/\*).*$/gm, '') }));

  test('server/README.md lists every service folder', () => {
    const readme = readFileSync(join(root, 'server/README.md'), 'utf8');
    expect(domains.filter((name) => !readme.includes(`\`services/${name}/\``))).toEqual([]);
  });

  test('every job worker lives at workers/<name>-worker.ts, and a workers/ folder holds nothing else', () => {
    const workerFile = /\/workers\/[a-z0-9-]+-worker\.ts$/;
    const misplaced = serviceCode.filter(
      (file) =>
        file !== `${services}/jobs/worker.ts` &&
        /\bdefineWorker\s*[<(]/.test(readFileSync(join(root, file), 'utf8')) !== workerFile.test(file),
    );
    const strays = serviceCode.filter((file) => file.includes('/workers/') && !workerFile.test(file));
    expect([...misplaced, ...strays]).toEqual([]);
  });

  test('services never import from server/routes', () => {
    const offenders = serviceCode.flatMap((file) =>
      imports(file)
        .map(({ from }) => target(file, from))
        .filter((path) => path?.startsWith('server/routes/'))
        .map((path) => `${file} → ${path}`),
    );
    expect(offenders).toEqual([]);
  });

  test('no service folder holds more than 12 flat .ts files (tests aside): a larger one splits into subfolders', () => {
    const counts = new Map<string, number>();
    for (const file of serviceCode) {
      const folder = file.slice(0, file.lastIndexOf('/'));
      counts.set(folder, (counts.get(folder) ?? 0) + 1);
    }
    expect([...counts].filter(([, n]) => n > 12).map(([folder, n]) => `${folder}: ${n}`)).toEqual([]);
  });

  test("only services/limits/ reads a plan's limits", () => {
    const limitTerm =
      /\bplanTerms(\[[^\]]+\]|\.\w+)\.(firewalls|members|eventsPerMonth|retentionDays|dashboards|alertRules|assets)\b/;
    const offenders = serverCode.filter(
      ({ file, code }) => !file.startsWith(`${services}/limits/`) && limitTerm.test(code),
    );
    expect(offenders.map(({ file }) => file)).toEqual([]);
  });

  test('only services/mail/ sends a mail', () => {
    const offenders = serverCode.filter(
      ({ file, code }) => !file.startsWith(`${services}/mail/`) && /\.send\(\s*[^)]/.test(code) && /mailer/.test(code),
    );
    expect(offenders.map(({ file }) => file)).toEqual([]);
  });

  test('only services/triage/ touches the triage_records table', () => {
    const offenders = serverCode.filter(
      ({ file, code }) =>
        !file.startsWith(`${services}/triage/`) && !file.startsWith('server/db/') && /\btriageRecords\b/.test(code),
    );
    expect(offenders.map(({ file }) => file)).toEqual([]);
  });
});

describe('comments', () => {
  test('name the behaviour, never an issue number of a tracker the repository does not have', () => {
    const code = ['src', 'server', 'contract'].flatMap((folder) =>
      readdirSync(join(root, folder), { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile() && /\.(ts|tsx|astro|mjs|css)$/.test(entry.name))
        .map((entry) => relative(root, join(entry.parentPath, entry.name))),
    );
    const offenders = code.filter((file) => /\bissues?\s+#?\d+/i.test(readFileSync(join(root, file), 'utf8')));
    expect(offenders).toEqual([]);
  });
});
