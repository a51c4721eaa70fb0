import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadCrsCatalog } from '../engine/crs-catalog.ts';
import { nginxCheck } from '../engine/nginx-check.ts';
import { compileCase, formatCase, parseCase, renderFiles } from './golden.ts';

// Caddy's caddyfile_adapt style: every cases/<name>.case holds settings, a line of dashes and the exact files they
// compile to. UPDATE_GOLDEN=1 rewrites the expected halves (read the diff before committing).
const folder = join(import.meta.dirname, 'cases');
const names = readdirSync(folder)
  .filter((name) => name.endsWith('.case'))
  .sort();
const catalog = loadCrsCatalog();

describe('golden cases', () => {
  test('there are cases', () => {
    expect(names.length).toBeGreaterThan(0);
  });

  test.each(names)('%s compiles to its expected files, which pass nginx -t', async (name) => {
    const path = join(folder, name);
    const { input, expected } = parseCase(readFileSync(path, 'utf8'));
    const compiled = compileCase(input, catalog);
    const output = renderFiles(compiled);
    if (process.env.UPDATE_GOLDEN === '1') writeFileSync(path, formatCase(input, output));
    else expect(output).toBe(expected);
    expect(compileCase(input, catalog)).toEqual(compiled);
    expect(await nginxCheck(compiled.files)).toEqual({ ok: true });
  });
});
