import { describe, expect, test } from 'vitest';
import { parseModSecurity } from '../services/ingest/parse-modsecurity.ts';
import { asctime, createTraffic } from './traffic.ts';

const to = new Date('2026-11-22T00:00:00.500Z');
const from = new Date(to.getTime() - 7 * 86_400_000);
const records = createTraffic(7).between(from, to, 20_000);
const parsed = records.map((record) => {
  const result = parseModSecurity(JSON.parse(JSON.stringify(record)));
  if (!result.ok) throw new Error(result.message);
  return { record, event: result.event };
});
const attackTag = (tags: string[]) => tags.find((t) => t.startsWith('attack-') && t !== 'attack-generic');

describe('createTraffic', () => {
  test('gives the count asked for, oldest first, with unique ids', () => {
    expect(records).toHaveLength(20_000);
    const times = parsed.map((p) => Date.parse(p.event.time));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(new Set(records.map((r) => r.transaction.unique_id)).size).toBe(records.length);
  });

  test('is reproducible from its seed', () => {
    expect(createTraffic(7).between(from, to, 50)).toEqual(createTraffic(7).between(from, to, 50));
    expect(createTraffic(8).between(from, to, 50)).not.toEqual(createTraffic(7).between(from, to, 50));
  });

  test('respects the time window, on whole seconds', () => {
    for (const { event } of parsed) {
      expect(Date.parse(event.time)).toBeGreaterThanOrEqual(from.getTime());
      expect(Date.parse(event.time)).toBeLessThan(to.getTime());
    }
    const short = createTraffic(1).between(new Date('2026-11-22T10:00:00Z'), new Date('2026-11-22T10:00:05Z'), 10);
    expect(short.map((r) => r.transaction.time_stamp).every((s) => /^Sun Nov 22 10:00:0[0-4] 2026$/.test(s))).toBe(
      true,
    );
  });

  test('every record parses into the action, severity and tags its messages say', () => {
    for (const { record, event } of parsed) {
      const tx = record.transaction;
      const messages = tx.messages;
      const anomaly = messages.some((m) => m.details.ruleId === '949110');
      const expectedAction =
        tx.response.http_code === 403 ? 'blocked' : messages.length > 0 ? 'logged' : ('allowed' as const);
      expect(event.action).toBe(expectedAction);
      const level = Math.min(8, ...messages.map((m) => Number(m.details.severity)));
      expect(event.severity).toBe(level === 2 ? 'critical' : level === 4 ? 'medium' : 'info');
      // The tags of the rules that detected something, not the anomaly verdict's own (attack-generic).
      const detecting = messages.filter(
        (m) => !['949110', '959100', '980130', '980140', '980170'].includes(m.details.ruleId),
      );
      const tagged = detecting.length > 0 ? detecting : messages;
      expect(event.tags).toEqual([...new Set(tagged.flatMap((m) => m.details.tags))]);
      expect(event.ruleIds).toEqual([...new Set(messages.map((m) => Number(m.details.ruleId)))]);
      // Blocked by the anomaly score, except on the host whose engine only detects.
      if (anomaly) expect(tx.response.http_code === 403).toBe(tx.request.headers.Host !== 'api.shop.example.com');
      if (event.action === 'blocked') expect(event.ruleIds).toContain(949110);
    }
  });

  test.each([
    ['attack-sqli', 942],
    ['attack-xss', 941],
    ['attack-lfi', 930],
    ['attack-rce', 932],
    ['attack-injection-php', 933],
    ['attack-reputation-scanner', 913],
    ['attack-protocol', 920],
  ])('%s events fire CRS %i rules with their paranoia level and OWASP_CRS tags', (tag, family) => {
    const found = parsed.filter((p) => p.event.tags.includes(tag));
    expect(found.length).toBeGreaterThan(50);
    for (const { event } of found) {
      expect(event.ruleIds.some((id) => Math.floor(id / 1000) === family)).toBe(true);
      expect(event.tags).toEqual(expect.arrayContaining(['paranoia-level/1', 'OWASP_CRS']));
      expect(event.tags.some((t) => t.startsWith('capec/'))).toBe(true);
      expect(event.message).toMatch(/\w/);
    }
  });

  test('scanners are named by their user agent', () => {
    const scans = parsed.filter((p) => p.event.ruleIds.includes(913100));
    const agents = new Set(scans.map((p) => p.event.userAgent?.split(/[/ ]/)[0]));
    expect(scans.map((p) => p.event.userAgent).join(' ')).toMatch(/sqlmap/);
    expect(scans.map((p) => p.event.userAgent).join(' ')).toMatch(/Nikto/);
    expect(scans.map((p) => p.event.userAgent).join(' ')).toMatch(/Nmap/);
    expect(agents.size).toBeGreaterThan(3);
  });

  test('mostly benign, with attacks a sizeable share', () => {
    const attacks = parsed.filter((p) => attackTag(p.event.tags)).length / parsed.length;
    const allowed = parsed.filter((p) => p.event.action === 'allowed');
    expect(attacks).toBeGreaterThan(0.12);
    expect(attacks).toBeLessThan(0.35);
    expect(allowed.length / parsed.length).toBeGreaterThan(0.65);
    expect(new Set(allowed.map((p) => p.event.status))).toEqual(new Set([200, 201, 304, 404, 422]));
    expect(parsed.filter((p) => p.event.action === 'logged').length).toBeGreaterThan(200);
  });

  test('client addresses come from many countries, none more than a third', () => {
    const countries = new Map<string | null, number>();
    for (const { event } of parsed) countries.set(event.country, (countries.get(event.country) ?? 0) + 1);
    expect(countries.get(null) ?? 0).toBe(0);
    expect(countries.size).toBeGreaterThanOrEqual(20);
    expect(Math.max(...countries.values()) / parsed.length).toBeLessThan(1 / 3);
  });

  test('a few noisy attackers send far more than anyone else', () => {
    const traffic = createTraffic(7);
    const perIp = new Map<string, number>();
    for (const { event } of parsed) {
      if (attackTag(event.tags) && event.ip) perIp.set(event.ip, (perIp.get(event.ip) ?? 0) + 1);
    }
    const top = [...perIp.entries()].sort((a, b) => b[1] - a[1]).slice(0, 5);
    expect(new Set(top.map(([ip]) => ip))).toEqual(new Set(traffic.noisy));
    expect(top.at(-1)?.[1]).toBeGreaterThan(100);
  });

  test('follows a daily rhythm: the busiest hour has well over twice the quietest', () => {
    const hours = new Array<number>(24).fill(0);
    for (const { event } of parsed) {
      const hour = new Date(event.time).getUTCHours();
      hours[hour] = (hours[hour] ?? 0) + 1;
    }
    expect(Math.max(...hours)).toBeGreaterThan(2 * Math.min(...hours));
  });

  test('records are about a kilobyte, like nginx writes them', () => {
    const bytes = records.reduce((sum, r) => sum + JSON.stringify(r).length, 0) / records.length;
    expect(bytes).toBeGreaterThan(800);
    expect(bytes).toBeLessThan(2500);
  });

  test.each([
    [Date.UTC(2026, 10, 22, 0, 22, 1), 'Sun Nov 22 00:22:01 2026'],
    [Date.UTC(2026, 0, 2, 9, 5, 0), 'Fri Jan 02 09:05:00 2026'],
  ])('asctime(%i) is $expected', (time, expected) => {
    expect(asctime(time)).toBe(expected);
  });
});
