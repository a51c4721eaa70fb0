import { describe, expect, test } from 'vitest';
import { buildPath, layoutOf, matchRoute, ROUTES, type RouteMeta, shellPath, validateRoutes } from './routes.ts';

describe('matchRoute', () => {
  test.each([
    ['/', '/', {}],
    ['/spaces/', '/spaces', {}],
    ['/console/abc', '/console/{space_id}', { space_id: 'abc' }],
    ['/console/siem/s1', '/console/siem/{space_id}', { space_id: 's1' }],
    ['/console/siem/manage/s1/src9', '/console/siem/manage/{space_id}/{id}', { space_id: 's1', id: 'src9' }],
    ['/console/alert/s1/a2', '/console/alert/{space_id}/{id}', { space_id: 's1', id: 'a2' }],
    [
      '/console/alerts/waf/s1/w1/e1',
      '/console/alerts/waf/{space_id}/{waf_id}/{id}',
      { space_id: 's1', waf_id: 'w1', id: 'e1' },
    ],
    ['/console/alerts/waf/discover/s1', '/console/alerts/waf/discover/{space_id}', { space_id: 's1' }],
    ['/auth/reset/t%20k', '/auth/reset/{token}', { token: 't k' }],
  ])('%s is %s with $2', (path, pattern, params) => {
    const match = matchRoute(path);
    expect(match?.route.pattern).toBe(pattern);
    expect(match?.params).toEqual(params);
  });

  test.each(['/console', '/console/a/b/c/d', '/auth/reset', '/auth', '/nope', '/spaces/extra', '/auth/reset/%E0%A4%A'])(
    '%s matches no route',
    (path) => {
      expect(matchRoute(path)).toBeNull();
    },
  );
});

describe('route table', () => {
  test('every auth page forces light mode', () => {
    const auth = ROUTES.filter((route) => route.pattern.startsWith('/auth/'));
    expect(auth).toHaveLength(6);
    for (const route of auth) expect('colorMode' in route && route.colorMode).toBe('light');
  });

  test('a route without a layout gets the default layout', () => {
    expect(layoutOf({ pattern: '/x', title: 'x', description: 'x' })).toBe('default');
    expect(layoutOf(ROUTES[1])).toBe('default');
  });

  test('the seed layouts of named routes are kept', () => {
    const layouts = Object.fromEntries(ROUTES.map((route) => [route.pattern, layoutOf(route)]));
    expect(layouts['/auth/login']).toBe('auth-flip');
    expect(layouts['/auth/register']).toBe('auth-xl');
    expect(layouts['/console/{space_id}']).toBe('console');
    expect(layouts['/console/dashboard/explore/{space_id}/{id}']).toBe('console-full');
    expect(layouts['/spaces']).toBe('spaces');
    expect(layouts['/profile']).toBe('spaces');
  });

  test('the table itself is valid', () => {
    expect(() => validateRoutes(ROUTES)).not.toThrow();
  });

  test.each<[string, RouteMeta, string]>([
    [
      'forcing system',
      { pattern: '/a', colorMode: 'system', title: 'a', description: 'a' },
      'forces the "system" colour mode',
    ],
    ['an unknown mode', { pattern: '/a', colorMode: 'sepia', title: 'a', description: 'a' }, 'unknown colour mode'],
    ['an unknown layout', { pattern: '/a', layout: 'wide' as never, title: 'a', description: 'a' }, 'unknown layout'],
  ])('refuses %s when the site is built', (_name, route, message) => {
    expect(() => validateRoutes([route], ['/a'])).toThrow(message);
  });

  test("refuses a table whose paths are not the browser's list, in its order", () => {
    const [first, second, ...rest] = ROUTES;
    expect(() => validateRoutes([second as RouteMeta, first as RouteMeta, ...rest])).toThrow('ROUTE_PATTERNS');
    expect(() => validateRoutes(ROUTES.slice(1))).toThrow('ROUTE_PATTERNS');
  });
});

describe('shells and paths', () => {
  test.each([
    ['/', '/'],
    ['/spaces', '/spaces/'],
    ['/console/{space_id}', '/console/_/'],
    ['/console/alerts/waf/{space_id}/{waf_id}/{id}', '/console/alerts/waf/_/_/_/'],
  ])('the shell of %s is %s', (pattern, expected) => {
    expect(shellPath(pattern)).toBe(expected);
  });

  test('buildPath encodes parameters and refuses missing ones', () => {
    expect(buildPath('/console/alert/{space_id}/{id}', { space_id: 'a b', id: '7' })).toBe('/console/alert/a%20b/7');
    expect(() => buildPath('/console/{space_id}', {})).toThrow('Missing parameter space_id');
  });
});
