/** The static site as built: files, the rewrite table of `_redirects`, the headers of `_headers`, the 404 page. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import { headersFor, parseHeadersFile } from '../site-config/headers-file.ts';
import { parseRedirectsFile, resolveRewrite } from '../site-config/redirects-file.ts';

const PATH_SLOT = '<span data-sg-path></span>';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** The 404 page with the requested path written in, so crawlers see it without running any script. */
export function renderNotFound(template: string, fullPath: string): string {
  return template.replace(PATH_SLOT, `<span data-sg-path>${escapeHtml(fullPath)}</span>`);
}

/** A Hono app serving the built site in `root` exactly as a static host would with its `_redirects` and `_headers`. */
export function createSiteApp(root: string): Hono {
  let redirects: string;
  try {
    redirects = readFileSync(join(root, '_redirects'), 'utf8');
  } catch {
    throw new Error(`No built site in ${root}: run "npm run build" first.`);
  }
  const rules = parseRedirectsFile(redirects);
  const headerRules = parseHeadersFile(readFileSync(join(root, '_headers'), 'utf8'));
  const notFound = readFileSync(join(root, '404.html'), 'utf8');

  const app = new Hono();
  app.use('*', async (c, next) => {
    await next();
    for (const [name, value] of headersFor(headerRules, c.req.path)) c.res.headers.set(name, value);
    const type = c.res.headers.get('content-type') ?? '';
    if (type.startsWith('text/html') && !c.res.headers.has('cache-control'))
      c.res.headers.set('cache-control', 'no-cache');
  });
  // Files as they are (precompressed copies when the client accepts them).
  app.use('*', serveStatic({ root, precompressed: true }));
  // Dynamic routes: the shell of the first matching rule, status 200, URL unchanged.
  app.on(['GET', 'HEAD'], '*', async (c, next) => {
    const shell = resolveRewrite(rules, c.req.path);
    if (!shell) return next();
    return serveStatic({ root, path: `${shell}index.html`, precompressed: true })(c, next);
  });
  // Everything else: the 404 page with status 404 (a catch-all route, since a mounted app's notFound is not used).
  app.all('*', (c) => {
    const url = new URL(c.req.url);
    return c.html(renderNotFound(notFound, url.pathname + url.search), 404);
  });
  return app;
}
