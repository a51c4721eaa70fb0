import { FirewallSettings } from '../../../../contract/firewall-settings.ts';
import { defaultFirewallSettings } from '../../../../contract/firewalls.ts';
import { loadCrsCatalog } from '../engine/crs-catalog.ts';
import { compileFirewall, hashFiles, nextExpiry } from './compile.ts';

const catalog = loadCrsCatalog();
const settings = FirewallSettings.parse({
  ...defaultFirewallSettings,
  name: 'Shop',
  hostnames: ['shop.example.com'],
  upstream: 'http://127.0.0.1:3000',
  mode: 'detect',
  ipDeny: [
    { cidr: '192.0.2.1', expiresAt: '2026-03-01T00:00:00Z' },
    { cidr: '192.0.2.2', expiresAt: '2026-02-01T00:00:00Z' },
    { cidr: '192.0.2.3' },
  ],
  ipAllow: [{ cidr: '198.51.100.1', expiresAt: '2026-01-15T00:00:00Z' }],
});
const compile = (changes: Partial<Parameters<typeof compileFirewall>[0]> = {}) =>
  compileFirewall({
    firewallId: '00000000-0000-4000-8000-000000000001',
    settings,
    catalog,
    now: new Date('2026-01-01T00:00:00Z'),
    ...changes,
  });

describe('compileFirewall', () => {
  test('the hash is the sha256 of the sorted files, whatever order they come in', () => {
    const { files, hash } = compile();
    const reversed = Object.fromEntries(Object.entries(files).reverse());
    expect(hashFiles(reversed)).toBe(hash);
    expect(Object.keys(files)).toEqual(Object.keys(files).sort());
  });

  test.each([
    [{ a: 'bc' }, { ab: 'c' }],
    [{ a: 'b\n1:c' }, { a: 'b', c: '' }],
    [{ a: '' }, {}],
  ])('framing keeps %j and %j apart', (one, other) => {
    expect(hashFiles(one)).not.toBe(hashFiles(other));
  });

  test('the files name no version: the same settings compile to the same bytes whatever version saves them', () => {
    const { files } = compile();
    expect(Object.values(files).join('\n')).not.toMatch(/, version \d|spaceguard\/[0-9a-f-]+\/\d/);
    expect(files['modsecurity.conf']).toContain(
      'SecComponentSignature "spaceguard/00000000-0000-4000-8000-000000000001"',
    );
  });

  test.each([
    ['the firewall', { firewallId: '00000000-0000-4000-8000-000000000002' }],
    ['an expiry passing', { now: new Date('2026-02-15T00:00:00Z') }],
  ])('%s changes the hash', (_, changes) => {
    expect(compile(changes).hash).not.toBe(compile().hash);
  });

  test('expired entries are left out, a list with none left is no file', () => {
    const later = compile({ now: new Date('2026-02-15T00:00:00Z') }).files;
    expect(later['ip-deny.txt']).toBe('192.0.2.1\n192.0.2.3\n');
    expect(later['ip-allow.txt']).toBeUndefined();
    expect(later['modsecurity.conf']).not.toContain('ip-allow.txt');
  });

  test.each([
    ['2025-12-31T00:00:00Z', '2026-01-15T00:00:00.000Z'],
    ['2026-01-15T00:00:00Z', '2026-02-01T00:00:00.000Z'],
    ['2026-02-10T00:00:00Z', '2026-03-01T00:00:00.000Z'],
    ['2026-03-01T00:00:00Z', null],
  ])('at %s the next expiry is %s', (now, expected) => {
    expect(nextExpiry(settings, new Date(now))?.toISOString() ?? null).toBe(expected);
  });
});
