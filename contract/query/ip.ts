/** IPv4 and IPv6 addresses and CIDR ranges, parsed without dependencies so the browser can use them too. */

/** An address as bytes: 4 for IPv4, 16 for IPv6. */
export type IpAddress = { version: 4 | 6; bytes: number[] };
/** A network: the address with its host bits cleared, and the prefix length. */
export type IpNetwork = IpAddress & { prefix: number };

const v4Seg = '(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])';
const v4 = `(${v4Seg}\\.){3}${v4Seg}`;
const h = '[0-9a-fA-F]{1,4}';
const v6 = [
  `(${h}:){7}${h}`,
  `(${h}:){1,7}:`,
  `(${h}:){1,6}:${h}`,
  `(${h}:){1,5}(:${h}){1,2}`,
  `(${h}:){1,4}(:${h}){1,3}`,
  `(${h}:){1,3}(:${h}){1,4}`,
  `(${h}:){1,2}(:${h}){1,5}`,
  `${h}:(:${h}){1,6}`,
  `:((:${h}){1,7}|:)`,
  `::([fF]{4}(:0{1,4})?:)?${v4}`,
  `(${h}:){1,4}:${v4}`,
].join('|');

/**
 * The addresses a stored event's ip may hold for a range query to consider it. Shared by the
 * in-memory matcher and the SQL compiler (POSIX-compatible), which checks it before casting to
 * inet so that a malformed stored address never fails a query.
 */
export const ipPattern = `^(${v4}|${v6})$`;
const ipRegExp = new RegExp(ipPattern);
/** The IPv4 part of ipPattern alone: what an address must be for an IPv4 range to consider it. */
export const ipv4Pattern = `^${v4}$`;
/** The IPv6 part of ipPattern alone (v4-mapped forms included). */
export const ipv6Pattern = `^(${v6})$`;

/**
 * Text that every IPv4 address of `net` starts with, as stored (no leading zeros): its whole octets, with a dot
 * after each unless all four are whole ('' below /8). A cheap LIKE that rules most rows out before the regex.
 */
export function ipv4TextPrefix(net: IpNetwork): string {
  const whole = Math.floor(net.prefix / 8);
  if (net.version !== 4 || whole === 0) return '';
  const octets = net.bytes.slice(0, whole).join('.');
  return whole === 4 ? octets : `${octets}.`;
}

function parseV4(text: string): number[] | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  const bytes: number[] = [];
  for (const part of parts) {
    if (!/^(0|[1-9][0-9]{0,2})$/.test(part)) return null;
    const n = Number(part);
    if (n > 255) return null;
    bytes.push(n);
  }
  return bytes;
}

function parseGroups(text: string): number[] | null {
  if (text === '') return [];
  const words: number[] = [];
  const parts = text.split(':');
  for (const [i, part] of parts.entries()) {
    // An embedded IPv4 address may end an IPv6 address and counts for two groups.
    if (i === parts.length - 1 && part.includes('.')) {
      const tail = parseV4(part);
      if (!tail) return null;
      words.push(((tail[0] ?? 0) << 8) | (tail[1] ?? 0), ((tail[2] ?? 0) << 8) | (tail[3] ?? 0));
      continue;
    }
    if (!/^[0-9a-fA-F]{1,4}$/.test(part)) return null;
    words.push(Number.parseInt(part, 16));
  }
  return words;
}

function parseV6(text: string): number[] | null {
  const halves = text.split('::');
  if (halves.length > 2) return null;
  let words: number[];
  if (halves.length === 2) {
    const head = parseGroups(halves[0] ?? '');
    const tail = parseGroups(halves[1] ?? '');
    if (!head || !tail || head.length + tail.length > 7) return null;
    words = [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail];
  } else {
    const all = parseGroups(text);
    if (all?.length !== 8) return null;
    words = all;
  }
  return words.flatMap((w) => [w >> 8, w & 0xff]);
}

/** Parses a single address (no prefix). */
export function parseIp(text: string): IpAddress | null {
  if (text.includes(':')) {
    const bytes = parseV6(text);
    return bytes ? { version: 6, bytes } : null;
  }
  const bytes = parseV4(text);
  return bytes ? { version: 4, bytes } : null;
}

/** An address a stored event may carry: the shared pattern, then the parser. */
export function parseEventIp(text: string): IpAddress | null {
  return ipRegExp.test(text) ? parseIp(text) : null;
}

/** Parses `addr` or `addr/prefix` into a network with its host bits cleared. */
export function parseNetwork(text: string): IpNetwork | null {
  const slash = text.indexOf('/');
  const address = parseIp(slash < 0 ? text : text.slice(0, slash));
  if (!address) return null;
  const max = address.version === 4 ? 32 : 128;
  let prefix = max;
  if (slash >= 0) {
    const bits = text.slice(slash + 1);
    if (!/^[0-9]{1,3}$/.test(bits)) return null;
    prefix = Number(bits);
    if (prefix > max) return null;
  }
  const bytes = address.bytes.map((b, i) => {
    const keep = Math.max(0, Math.min(8, prefix - i * 8));
    return b & ((0xff << (8 - keep)) & 0xff);
  });
  return { version: address.version, bytes, prefix };
}

/** The canonical text of a network, which PostgreSQL's inet accepts. */
export function formatNetwork(net: IpNetwork): string {
  if (net.version === 4) return `${net.bytes.join('.')}/${net.prefix}`;
  const words: string[] = [];
  for (let i = 0; i < 16; i += 2) words.push((((net.bytes[i] ?? 0) << 8) | (net.bytes[i + 1] ?? 0)).toString(16));
  return `${words.join(':')}/${net.prefix}`;
}

/** Whether the address lies in the network (never across IPv4 and IPv6, as in PostgreSQL). */
export function networkContains(net: IpNetwork, address: IpAddress): boolean {
  if (net.version !== address.version) return false;
  for (let i = 0; i < net.bytes.length; i++) {
    const keep = Math.max(0, Math.min(8, net.prefix - i * 8));
    if (keep === 0) break;
    const mask = (0xff << (8 - keep)) & 0xff;
    if (((address.bytes[i] ?? 0) & mask) !== (net.bytes[i] ?? 0)) return false;
  }
  return true;
}
