/**
 * Serves country flags from the installed `flag-icons` package (MIT) at /flags/<code>.svg, lower-case ISO 3166-1
 * alpha-2 codes, in dev and in the build: the event log draws a client's flag without an emoji font and without
 * anything from the internet. Only the flags a page shows are fetched, each once (they are immutable per build).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { copyFile, mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';

/** Where a country's flag is served. */
export const flagPath = (code: string): string => `/flags/${code.toLowerCase()}.svg`;

/** The package's 4:3 flags directory. */
export function flagsDir(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('flag-icons/package.json')), 'flags', '4x3');
}

/** The flag files by served path. */
export function flagFiles(): Map<string, string> {
  const dir = flagsDir();
  return new Map(
    readdirSync(dir)
      .filter((name) => /^[a-z]{2}\.svg$/.test(name))
      .map((name) => [flagPath(name.slice(0, 2)), join(dir, name)] as const),
  );
}

export function flagAssets(): AstroIntegration {
  let files: Map<string, string> | undefined;
  const all = () => {
    files ??= flagFiles();
    return files;
  };
  return {
    name: 'spaceguard-flag-assets',
    hooks: {
      'astro:server:setup': ({ server }) => {
        server.middlewares.use((request, response, next) => {
          const file = all().get(request.url?.split('?')[0] ?? '');
          if (!file || (request.method !== 'GET' && request.method !== 'HEAD')) {
            next();
            return;
          }
          response.setHeader('content-type', 'image/svg+xml');
          response.setHeader('cache-control', 'public, max-age=3600');
          response.end(request.method === 'HEAD' ? undefined : readFileSync(file));
        });
      },
      'astro:build:done': async ({ dir, logger }) => {
        const root = join(fileURLToPath(dir), 'flags');
        await mkdir(root, { recursive: true });
        for (const [path, file] of all()) await copyFile(file, join(root, path.slice('/flags/'.length)));
        logger.info(`${all().size} country flags written to /flags/`);
      },
    },
  };
}

export default flagAssets;
