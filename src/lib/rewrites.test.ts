import { describe, expect, test } from 'vitest';
import { parseRedirectsFile, resolveRewrite, toRedirectsFile } from '../../site-config/redirects-file.ts';
import { rewriteRules, toNginxInclude } from './rewrites.ts';
import { isDynamic, matchRoute, ROUTES, shellPath } from './routes.ts';

const rules = rewriteRules(ROUTES);

describe('rewrite table', () => {
  test('has one rule per dynamic route and none for static ones', () => {
    expect(rules).toHaveLength(ROUTES.filter((route) => isDynamic(route.pattern)).length);
    expect(rules.find((rule) => rule.from === '/spaces')).toBeUndefined();
  });

  test('the _redirects file reads back as the same table', () => {
    const text = toRedirectsFile(rules);
    expect(text).toContain('/console/:space_id /console/_/ 200');
    expect(parseRedirectsFile(text)).toEqual(rules);
  });

  test('a redirect that is not a 200 rewrite is refused', () => {
    expect(() => parseRedirectsFile('/a /b 301')).toThrow('Unsupported _redirects line');
  });

  test.each([
    '/console/s1',
    '/console/siem/manage/s1/x',
    '/console/alerts/waf/s1/w/e',
    '/console/alerts/waf/discover/s1',
    '/auth/activation/tok',
    '/console/subscription/payment-history/s1/',
  ])('%s is served by the shell of the route it matches', (path) => {
    const match = matchRoute(path);
    expect(match).not.toBeNull();
    expect(resolveRewrite(rules, path)).toBe(shellPath(match?.route.pattern ?? ''));
  });

  test.each(['/console', '/console/a/b/c/d', '/auth/reset', '/console/siem/manage/s1', '/unknown'])(
    '%s has no rewrite',
    (path) => {
      expect(resolveRewrite(rules, path)).toBeNull();
    },
  );

  test('the nginx include maps each rule with an anchored regex and serves the 404 page', () => {
    const conf = toNginxInclude(rules);
    expect(conf).toContain('location ~ ^/console/[^/]+/?$ {\n    try_files /console/_/index.html =404;\n}');
    expect(conf).toContain('error_page 404 /404.html;');
    expect(conf.match(/location ~/g)).toHaveLength(rules.length);
  });
});
