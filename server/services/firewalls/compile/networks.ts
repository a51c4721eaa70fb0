import { type IpNetwork, parseNetwork } from '../../../../contract/query/ip.ts';
import { UnsafeValueError } from './escape.ts';

/** Parses an address or CIDR range (host bits cleared); refused when it is neither. */
export function networkOf(value: string): IpNetwork {
  const text = value.trim();
  const network = parseNetwork(text.includes('/') ? text : `${text}/${text.includes(':') ? 128 : 32}`);
  if (!network) throw new UnsafeValueError(`Not an IP address or CIDR range: ${JSON.stringify(value)}`);
  return network;
}

/** The address of a network in its shortest text (IPv6 with the longest run of zero words as `::`). */
function addressText(net: IpNetwork): string {
  if (net.version === 4) return net.bytes.join('.');
  const words: number[] = [];
  for (let i = 0; i < 16; i += 2) words.push(((net.bytes[i] ?? 0) << 8) | (net.bytes[i + 1] ?? 0));
  let best = { start: -1, length: 0 };
  for (let start = 0; start < 8; start++) {
    let length = 0;
    while (start + length < 8 && words[start + length] === 0) length++;
    if (length > best.length && length > 1) best = { start, length };
  }
  const hex = words.map((word) => word.toString(16));
  if (best.start < 0) return hex.join(':');
  return `${hex.slice(0, best.start).join(':')}::${hex.slice(best.start + best.length).join(':')}`;
}

/** `addr/prefix` in its shortest text, which nginx reads (`set_real_ip_from`). */
export function cidrText(value: string): string {
  const net = networkOf(value);
  return `${addressText(net)}/${net.prefix}`;
}

/**
 * A range as libmodsecurity 3.0.9 reads it (`@ipMatch`, `@ipMatchFromFile`): it refuses `/0` and an IPv6 `/128`
 * (measured with nginx -t), so a single address is written bare and "everything" as its two halves.
 */
export function modsecNetworks(value: string): string[] {
  const net = networkOf(value);
  const max = net.version === 4 ? 32 : 128;
  if (net.prefix === max) return [addressText(net)];
  if (net.prefix === 0) return net.version === 4 ? ['0.0.0.0/1', '128.0.0.0/1'] : ['::/1', '8000::/1'];
  return [`${addressText(net)}/${net.prefix}`];
}
