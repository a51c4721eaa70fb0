/**
 * Where a webhook may go (issue #15): a URL whose host resolves to loopback, private, link-local or otherwise
 * special addresses could make the server call its own network for an attacker (SSRF), so it is refused unless
 * WEBHOOK_ALLOWED_HOSTS lists the host; outside production loopback is allowed, so a local receiver can be tried.
 */
import { lookup } from 'node:dns/promises';
import { type IpAddress, networkContains, parseIp, parseNetwork } from '../../../contract/query/ip.ts';
import type { ApiConfig } from '../../config.ts';

/** What the check needs from the configuration. */
export type UrlGuardConfig = Pick<ApiConfig, 'production' | 'webhookAllowedHosts'>;

/** A resolved address of the host, as `node:net` connects to it. */
export type ResolvedAddress = { address: string; family: 4 | 6 };

/** The check's answer: why the URL is refused, or the addresses the host resolved to (to connect to those only). */
export type WebhookTarget = { problem: string } | { problem: null; host: string; addresses: ResolvedAddress[] };

type AddressKind = 'loopback' | 'private' | 'link-local' | 'unspecified' | 'multicast' | 'broadcast' | 'reserved';

/** Special ranges, most specific first; an address in none of them is public. */
const ranges: [string, AddressKind][] = [
  ['255.255.255.255/32', 'broadcast'],
  ['0.0.0.0/32', 'unspecified'],
  ['0.0.0.0/8', 'reserved'],
  ['127.0.0.0/8', 'loopback'],
  ['10.0.0.0/8', 'private'],
  ['172.16.0.0/12', 'private'],
  ['192.168.0.0/16', 'private'],
  ['100.64.0.0/10', 'private'],
  ['169.254.0.0/16', 'link-local'],
  ['224.0.0.0/4', 'multicast'],
  ['240.0.0.0/4', 'reserved'],
  ['::/128', 'unspecified'],
  ['::1/128', 'loopback'],
  ['fc00::/7', 'private'],
  ['fe80::/10', 'link-local'],
  ['ff00::/8', 'multicast'],
];
const networks = ranges.map(([text, kind]) => {
  const net = parseNetwork(text);
  if (!net) throw new Error(`url-guard: bad range ${text}`);
  return { net, kind };
});

/** An IPv4 address written as IPv6 (`::ffff:10.0.0.1`) is judged as the IPv4 address it carries. */
function unmapped(address: IpAddress): IpAddress {
  const b = address.bytes;
  const mapped = address.version === 6 && b.slice(0, 10).every((x) => x === 0) && b[10] === 0xff && b[11] === 0xff;
  return mapped ? { version: 4, bytes: b.slice(12) } : address;
}

/** The kind of special address `text` is, or null for a public one. */
function kindOf(text: string): AddressKind | null {
  const parsed = parseIp(text);
  if (!parsed) return 'reserved';
  const address = unmapped(parsed);
  return networks.find(({ net }) => networkContains(net, address))?.kind ?? null;
}

const described: Record<AddressKind, string> = {
  loopback: 'a loopback address',
  private: 'a private address',
  'link-local': 'a link-local address',
  unspecified: 'the unspecified address',
  multicast: 'a multicast address',
  broadcast: 'the broadcast address',
  reserved: 'a reserved address',
};

/** The host's addresses: an IP literal as is, a name through the system resolver (every address). */
async function resolve(host: string): Promise<ResolvedAddress[]> {
  const literal = parseIp(host);
  if (literal) return [{ address: host, family: literal.version }];
  const found = await lookup(host, { all: true, verbatim: true });
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
}

/** A host as URL writes it (lower case, IPv6 shortened, names in punycode), so a listed host matches its URLs. */
function hostOf(listed: string): string {
  const bare = listed.trim().replace(/^\[|\]$/g, '');
  try {
    return new URL(`http://${bare.includes(':') ? `[${bare}]` : bare}/`).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return bare.toLowerCase();
  }
}

/** Checks a webhook URL and resolves its host: the addresses to connect to, or a message saying why not. */
export async function checkWebhookUrl(url: string, config: UrlGuardConfig): Promise<WebhookTarget> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { problem: 'This is not a valid address: use an http:// or https:// URL.' };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    return { problem: 'Use an http:// or https:// address.' };
  // URL keeps IPv6 hosts in brackets.
  const host = parsed.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  let addresses: ResolvedAddress[];
  try {
    addresses = await resolve(host);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    return { problem: `The host “${host}” does not resolve${typeof code === 'string' ? ` (${code})` : ''}.` };
  }
  if (addresses.length === 0) return { problem: `The host “${host}” does not resolve.` };
  if (config.webhookAllowedHosts.some((listed) => hostOf(listed) === host)) return { problem: null, host, addresses };
  for (const { address } of addresses) {
    const kind = kindOf(address);
    if (kind === null || (kind === 'loopback' && !config.production)) continue;
    const where = address === host ? `“${host}” is` : `“${host}” resolves to ${address},`;
    return {
      problem: `${where} ${described[kind]}: webhooks may not reach it. List the host in WEBHOOK_ALLOWED_HOSTS to allow it.`,
    };
  }
  return { problem: null, host, addresses };
}

/** Why a webhook URL is refused (loopback, private, link-local… or unresolvable), or null when it may be called. */
export async function webhookUrlProblem(url: string, config: UrlGuardConfig): Promise<string | null> {
  return (await checkWebhookUrl(url, config)).problem;
}
