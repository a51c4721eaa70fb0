import { afterEach, describe, expect, test, vi } from 'vitest';
import { DEFAULT_CONFIG, loadRuntimeConfig, parseRuntimeConfig } from './config.ts';

afterEach(() => vi.restoreAllMocks());

const respond = (status: number, body: string) => async () => new Response(body, { status });

describe('parseRuntimeConfig', () => {
  test('reads every documented field', () => {
    const { config, problems } = parseRuntimeConfig({
      apiBaseUrl: 'https://api.example.test/api/',
      captchaSiteKey: 'site-key',
      mapTileUrl: 'https://tiles.example.test/{z}/{x}/{y}.png',
      persistence: {
        storage: 'cookie',
        cookie: { domain: '.example.test', sameSite: 'strict', secure: false, maxAgeDays: 30 },
      },
    });
    expect(problems).toEqual([]);
    expect(config.apiBaseUrl).toBe('https://api.example.test/api');
    expect(config.captchaSiteKey).toBe('site-key');
    expect(config.persistence).toEqual({
      storage: 'cookie',
      cookie: { domain: '.example.test', path: '/', sameSite: 'strict', secure: false, maxAgeDays: 30 },
    });
  });

  test('names each malformed field and keeps its default', () => {
    const { config, problems } = parseRuntimeConfig({ apiBaseUrl: 5, persistence: { storage: 'disk' } });
    expect(problems).toEqual([
      'apiBaseUrl must be a non-empty string',
      'persistence.storage must be one of local, session, cookie',
    ]);
    expect(config.apiBaseUrl).toBe('/api');
    expect(config.persistence.storage).toBe('local');
  });

  test('anything but an object gives the defaults', () => {
    expect(parseRuntimeConfig([1, 2])).toEqual({
      config: DEFAULT_CONFIG,
      problems: ['the file must hold a JSON object'],
    });
  });
});

describe('loadRuntimeConfig', () => {
  test.each([
    ['missing', respond(404, 'not found')],
    ['not JSON', respond(200, '{ nope')],
    ['a JSON string', respond(200, '"text"')],
    ['unreachable', async () => Promise.reject(new TypeError('Failed to fetch'))],
  ])('a %s file falls back to the defaults with one warning', async (_name, fetcher) => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const config = await loadRuntimeConfig(fetcher as typeof fetch);
    expect(config.apiBaseUrl).toBe(DEFAULT_CONFIG.apiBaseUrl);
    expect(config.captchaSiteKey).toBeNull();
    expect(warn).toHaveBeenCalledTimes(1);
  });

  test('a good file gives no warning', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const config = await loadRuntimeConfig(respond(200, '{"captchaSiteKey":"k"}') as typeof fetch);
    expect(config.captchaSiteKey).toBe('k');
    expect(warn).not.toHaveBeenCalled();
  });
});
