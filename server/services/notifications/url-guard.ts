/**
 * Where a webhook may go: a URL whose host is, or resolves to, an address that is not globally
 * reachable could make the server call its own network for an attacker (SSRF), so it is refused unless
 * WEBHOOK_ALLOWED_HOSTS lists the host; outside production loopback is allowed, so a local receiver can be tried.
 *
 * "Globally reachable" is decided from the IANA special-purpose address registries (IPv4 and IPv6): every entry whose
 * "Globally Reachable" is False is refused, the most specific entry deciding (192.0.0.9/32 is reachable inside
 * 192.0.0.0/24, which is not). IPv6 forms that carry an IPv4 address (IPv4-mapped, IPv4-compatible,
 * IPv4-translated, NAT64 64:ff9b::/96, 6to4, Teredo) are judged by the IPv4 address they carry. Multicast and the
 * deprecated site-local fec0::/10, which are not in those registries, are refused too. ipaddr.js parses and
 * matches the addresses; its own `range()` names no "Globally Reachable" and answers the first of overlapping
 * ranges, so the registries' entries are written out here.
 */
import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import type { ApiConfig } from '../../config.ts';

/** What the check needs from the configuration. */
export type UrlGuardConfig = Pick<ApiConfig, 'production' | 'webhookAllowedHosts'>;

/** A resolved address of the host, as `node:net` connects to it. */
export type ResolvedAddress = { address: string; family: 4 | 6 };

/** The check's answer: why the URL is refused, or the addresses the host resolved to (to connect to those only). */
export type WebhookTarget = { problem: string } | { problem: null; host: string; addresses: ResolvedAddress[] };

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/**
 * One entry of the registries (or one of the few refused ranges outside them): what an address in it is.
 * `refused`: a phrase naming it ("a loopback address"); `reachable`: globally reachable, allowed;
 * `carries`: the IPv4 address inside, judged instead (with the form's name).
 */
export type SpecialRange =
  | { cidr: string; refused: string; loopback?: true }
  | { cidr: string; reachable: string }
  | { cidr: string; carries: string; ipv4: (bytes: number[]) => number[] };

const last32 = (bytes: number[]) => bytes.slice(12, 16);

/**
 * The IPv4 Special-Purpose Address Registry, the IPv6 one, and the other ranges webhooks may not reach. Order does
 * not matter: the longest prefix that holds an address decides.
 */
export const specialRanges: readonly SpecialRange[] = [
  // IPv4 (RFC 6890 and the registry's later entries).
  { cidr: '0.0.0.0/8', refused: 'an address of “this network”' },
  { cidr: '0.0.0.0/32', refused: 'the unspecified address' },
  { cidr: '10.0.0.0/8', refused: 'a private address' },
  { cidr: '100.64.0.0/10', refused: 'a shared (carrier-grade NAT) address' },
  { cidr: '127.0.0.0/8', refused: 'a loopback address', loopback: true },
  { cidr: '169.254.0.0/16', refused: 'a link-local address' },
  { cidr: '172.16.0.0/12', refused: 'a private address' },
  { cidr: '192.0.0.0/24', refused: 'an IETF protocol assignment' },
  { cidr: '192.0.0.0/29', refused: 'an IPv4 service continuity address' },
  { cidr: '192.0.0.8/32', refused: 'the IPv4 dummy address' },
  { cidr: '192.0.0.9/32', reachable: 'Port Control Protocol anycast' },
  { cidr: '192.0.0.10/32', reachable: 'TURN anycast' },
  { cidr: '192.0.0.170/32', refused: 'a NAT64/DNS64 discovery address' },
  { cidr: '192.0.0.171/32', refused: 'a NAT64/DNS64 discovery address' },
  { cidr: '192.0.2.0/24', refused: 'a documentation address' },
  { cidr: '192.31.196.0/24', reachable: 'AS112' },
  { cidr: '192.52.193.0/24', reachable: 'AMT' },
  { cidr: '192.88.99.0/24', refused: 'a deprecated 6to4 relay anycast address' },
  { cidr: '192.168.0.0/16', refused: 'a private address' },
  { cidr: '192.175.48.0/24', reachable: 'AS112 direct delegation' },
  { cidr: '198.18.0.0/15', refused: 'a benchmarking address' },
  { cidr: '198.51.100.0/24', refused: 'a documentation address' },
  { cidr: '203.0.113.0/24', refused: 'a documentation address' },
  { cidr: '240.0.0.0/4', refused: 'a reserved address' },
  { cidr: '255.255.255.255/32', refused: 'the broadcast address' },
  // Not in the special-purpose registry (the multicast registry has it).
  { cidr: '224.0.0.0/4', refused: 'a multicast address' },

  // IPv6 (RFC 6890 and the registry's later entries).
  { cidr: '::1/128', refused: 'a loopback address', loopback: true },
  { cidr: '::/128', refused: 'the unspecified address' },
  { cidr: '::ffff:0:0/96', carries: 'an IPv4-mapped form', ipv4: last32 },
  { cidr: '64:ff9b::/96', carries: 'a NAT64 form', ipv4: last32 },
  { cidr: '64:ff9b:1::/48', refused: 'a local-use NAT64 address' },
  { cidr: '100::/64', refused: 'a discard-only address' },
  { cidr: '100:0:0:1::/64', refused: 'a dummy address' },
  { cidr: '2001::/23', refused: 'an IETF protocol assignment' },
  // Teredo: the client's IPv4 address is the last 32 bits, inverted.
  { cidr: '2001::/32', carries: 'a Teredo form', ipv4: (bytes) => last32(bytes).map((b) => b ^ 0xff) },
  { cidr: '2001:1::1/128', reachable: 'Port Control Protocol anycast' },
  { cidr: '2001:1::2/128', reachable: 'TURN anycast' },
  { cidr: '2001:1::3/128', reachable: 'DNS-SD service registration anycast' },
  { cidr: '2001:2::/48', refused: 'a benchmarking address' },
  { cidr: '2001:3::/32', reachable: 'AMT' },
  { cidr: '2001:4:112::/48', reachable: 'AS112' },
  { cidr: '2001:10::/28', refused: 'a deprecated ORCHID address' },
  { cidr: '2001:20::/28', reachable: 'ORCHIDv2' },
  { cidr: '2001:30::/28', reachable: 'drone remote ID entity tags' },
  { cidr: '2001:db8::/32', refused: 'a documentation address' },
  // 6to4: the IPv4 address follows the 2002: prefix.
  { cidr: '2002::/16', carries: 'a 6to4 form', ipv4: (bytes) => bytes.slice(2, 6) },
  { cidr: '2620:4f:8000::/48', reachable: 'AS112 direct delegation' },
  { cidr: '3fff::/20', refused: 'a documentation address' },
  { cidr: '5f00::/16', refused: 'a segment routing (SRv6) address' },
  { cidr: 'fc00::/7', refused: 'a private (unique local) address' },
  { cidr: 'fe80::/10', refused: 'a link-local address' },
  // Not in the special-purpose registry: the IPv4 forms of RFC 4291 and 2765, site-local, multicast.
  { cidr: '::/96', carries: 'an IPv4-compatible form', ipv4: last32 },
  { cidr: '::ffff:0:0:0/96', carries: 'an IPv4-translated form', ipv4: last32 },
  { cidr: 'fec0::/10', refused: 'a site-local address (deprecated)' },
  { cidr: 'ff00::/8', refused: 'a multicast address' },
];

const parsedRanges = specialRanges
  .map((range) => ({ range, net: ipaddr.parseCIDR(range.cidr) }))
  .sort((a, b) => b.net[1] - a.net[1]);

/** The most specific range holding `address`, if any. */
function rangeOf(address: Address): SpecialRange | null {
  return parsedRanges.find(({ net }) => address.kind() === net[0].kind() && address.match(net))?.range ?? null;
}

/** Why an address may not be reached: what it is, whether it is loopback (allowed outside production). */
type Refusal = { what: string; loopback: boolean };

/** Why `address` may not be reached, or null for a globally reachable one. */
function refusalOf(address: Address): Refusal | null {
  const range = rangeOf(address);
  if (!range || 'reachable' in range) return null;
  if ('refused' in range) return { what: `${range.refused} (${range.cidr})`, loopback: range.loopback === true };
  const inside = new ipaddr.IPv4(range.ipv4(address.toByteArray()));
  const refusal = refusalOf(inside);
  return refusal && { what: `${range.carries} of ${inside.toString()}, ${refusal.what}`, loopback: refusal.loopback };
}

/** The host's addresses: an IP literal as is, a name through the system resolver (every address). */
async function resolve(host: string): Promise<ResolvedAddress[]> {
  if (ipaddr.isValid(host)) return [{ address: host, family: ipaddr.parse(host).kind() === 'ipv6' ? 6 : 4 }];
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
    return { problem: 'url: This is not a valid address: use an http:// or https:// URL.' };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    return { problem: 'url: Use an http:// or https:// address.' };
  // URL keeps IPv6 hosts in brackets.
  const host = parsed.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  let addresses: ResolvedAddress[];
  try {
    addresses = await resolve(host);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    return { problem: `url: The host “${host}” does not resolve${typeof code === 'string' ? ` (${code})` : ''}.` };
  }
  if (addresses.length === 0) return { problem: `url: The host “${host}” does not resolve.` };
  if (config.webhookAllowedHosts.some((listed) => hostOf(listed) === host)) return { problem: null, host, addresses };
  for (const { address } of addresses) {
    // An address the resolver answers is valid; one that is not cannot be judged, so it is refused.
    const refusal = ipaddr.isValid(address)
      ? refusalOf(ipaddr.parse(address))
      : { what: 'not an IP address', loopback: false };
    if (refusal === null || (refusal.loopback && !config.production)) continue;
    const where = address === host ? `“${host}” is` : `“${host}” resolves to ${address},`;
    return {
      problem: `url: ${where} ${refusal.what}; webhooks must reach a public address. List the host in WEBHOOK_ALLOWED_HOSTS to allow it.`,
    };
  }
  return { problem: null, host, addresses };
}

/** Why a webhook URL is refused (not globally reachable, or unresolvable), or null when it may be called. */
export async function webhookUrlProblem(url: string, config: UrlGuardConfig): Promise<string | null> {
  return (await checkWebhookUrl(url, config)).problem;
}
