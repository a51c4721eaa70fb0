/**
 * The Spaceguard build integration: validates the route table, inlines the boot script,
 * and after the build writes the rewrite table, security headers, build id and manifest,
 * and precompressed copies of every text file.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { AstroIntegration } from 'astro';
import { buildSync } from 'esbuild';
import { type HeaderRule, toHeadersFile } from '../../site-config/headers-file.ts';
import { toRedirectsFile } from '../../site-config/redirects-file.ts';
import { buildManifestUrl, LATEST_BUILD_URL } from '../lib/build-check.ts';
import { rewriteRules, toNginxInclude } from '../lib/rewrites.ts';
import { ROUTES, shellPath, validateRoutes } from '../lib/routes.ts';

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);
const COMPRESSIBLE = /\.(html|js|mjs|css|json|svg|txt|xml|map|conf)$/;

/** Bundles src/lib/boot into the inline script, with this build's id compiled in. */
export function bundleBootScript(buildId: string): string {
  const entry = fileURLToPath(new URL('../lib/boot/index.ts', import.meta.url));
  const result = buildSync({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    format: 'iife',
    target: 'es2022',
    write: false,
    legalComments: 'none',
    define: { __SG_BUILD_ID__: JSON.stringify(buildId) },
  });
  const output = result.outputFiles[0];
  if (!output) throw new Error('The boot script did not bundle.');
  return output.text.trim();
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

/** sha256 CSP sources of every inline script in the built pages. */
async function inlineScriptHashes(htmlFiles: readonly string[]): Promise<string[]> {
  const hashes = new Set<string>();
  for (const file of htmlFiles) {
    const html = await readFile(file, 'utf8');
    for (const match of html.matchAll(/<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/g)) {
      const body = match[1] ?? '';
      if (body.trim() === '') continue;
      hashes.add(`'sha256-${createHash('sha256').update(body).digest('base64')}'`);
    }
  }
  return [...hashes].sort();
}

/** The Content-Security-Policy for the site; extra API origins come from CSP_CONNECT_SRC at build time. */
function contentSecurityPolicy(scriptHashes: readonly string[]): string {
  const extraConnect = (process.env.CSP_CONNECT_SRC ?? '').split(/\s+/).filter(Boolean);
  return [
    "default-src 'self'",
    `script-src 'self' ${scriptHashes.join(' ')} https://www.recaptcha.net https://www.gstatic.com`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https:",
    "font-src 'self'",
    ['connect-src', "'self'", 'https://www.recaptcha.net', ...extraConnect].join(' '),
    'frame-src https://www.recaptcha.net',
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export default function spaceguard(): AstroIntegration {
  const buildId =
    process.env.BUILD_ID ??
    `${new Date().toISOString().replace(/\D/g, '').slice(0, 14)}-${randomBytes(4).toString('hex')}`;
  return {
    name: 'spaceguard',
    hooks: {
      'astro:config:setup': ({ injectScript }) => {
        // Refuse a route table that forces "system" or names an unknown layout.
        validateRoutes(ROUTES);
        injectScript('head-inline', bundleBootScript(buildId));
      },
      'astro:build:done': async ({ dir, logger }) => {
        const out = fileURLToPath(dir);
        // Every route of the table must have its shell, and the 404 page must exist.
        const missing = [...ROUTES.map((route) => shellPath(route.pattern)), '/404'].filter((path) => {
          const file = path === '/404' ? join(out, '404.html') : join(out, path, 'index.html');
          return !existsSync(file);
        });
        if (missing.length > 0) throw new Error(`Missing pre-rendered shells: ${missing.join(', ')}`);

        const rules = rewriteRules(ROUTES);
        await writeFile(join(out, '_redirects'), toRedirectsFile(rules));
        await writeFile(join(out, 'nginx-spaceguard.conf'), toNginxInclude(rules));

        const files = await listFiles(out);
        const htmlFiles = files.filter((file) => file.endsWith('.html'));
        const headerRules: HeaderRule[] = [
          {
            path: '/*',
            headers: [
              ['Content-Security-Policy', contentSecurityPolicy(await inlineScriptHashes(htmlFiles))],
              ['X-Content-Type-Options', 'nosniff'],
              ['Referrer-Policy', 'strict-origin-when-cross-origin'],
              ['Permissions-Policy', 'camera=(), microphone=(), geolocation=(), payment=()'],
              ['Cross-Origin-Opener-Policy', 'same-origin'],
            ],
          },
          { path: '/_astro/*', headers: [['Cache-Control', 'public, max-age=31536000, immutable']] },
          { path: '/_build/*', headers: [['Cache-Control', 'no-cache']] },
          { path: '/config.json', headers: [['Cache-Control', 'no-cache']] },
        ];
        await writeFile(join(out, '_headers'), toHeadersFile(headerRules));

        // Build id and manifest, polled by every open page.
        const manifest = {
          id: buildId,
          builtAt: new Date().toISOString(),
          routes: ROUTES.map((route) => ({ pattern: route.pattern, shell: shellPath(route.pattern) })),
          files: (await listFiles(out)).map((file) => `/${relative(out, file).split('\\').join('/')}`).sort(),
        };
        const manifestFile = join(out, buildManifestUrl(buildId));
        await mkdir(dirname(manifestFile), { recursive: true });
        await writeFile(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`);
        await writeFile(join(out, LATEST_BUILD_URL), `${JSON.stringify({ id: buildId, builtAt: manifest.builtAt })}\n`);

        // Precompressed copies for hosts (and our server) that serve them.
        let compressed = 0;
        for (const file of await listFiles(out)) {
          if (!COMPRESSIBLE.test(file) || (await stat(file)).size < 256) continue;
          const body = await readFile(file);
          await writeFile(`${file}.gz`, await gzipAsync(body, { level: 9 }));
          await writeFile(`${file}.br`, await brotliAsync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
          compressed += 1;
        }
        logger.info(`build ${buildId}: ${rules.length} rewrites, ${compressed} files precompressed`);
      },
    },
  };
}
