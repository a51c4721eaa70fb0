/** Pasted IP list lines (`CIDR [comment]`, one a line) read into entries, with each bad line named. */
import type { IpEntry } from '../../../contract/firewall-settings.ts';
import { formatNetwork, parseNetwork } from '../../../contract/query/ip.ts';

/** What a paste gives: the entries read, and the bad lines with their line number and reason. */
export interface PasteResult {
  readonly entries: IpEntry[];
  readonly bad: { readonly line: number; readonly text: string; readonly message: string }[];
}

/** An address or CIDR range in its canonical form (`10.0.0.0/8`), or null. */
export function canonicalCidr(text: string): string | null {
  const network = parseNetwork(text.includes('/') ? text : `${text}/${text.includes(':') ? 128 : 32}`);
  return network ? formatNetwork(network) : null;
}

/** Reads one entry a line: the address or range, then an optional comment; blank lines and `#` lines are skipped. */
export function parsePaste(text: string, expiresAt?: string): PasteResult {
  const entries: IpEntry[] = [];
  const bad: PasteResult['bad'][number][] = [];
  text.split('\n').forEach((raw, index) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const [first = '', ...rest] = line.split(/\s+/);
    const cidr = canonicalCidr(first);
    if (!cidr) {
      bad.push({ line: index + 1, text: line, message: `"${first}" is not an IP address or CIDR range.` });
      return;
    }
    const comment = rest.join(' ').replace(/^#\s*/, '');
    entries.push({ cidr, ...(comment ? { comment } : {}), ...(expiresAt ? { expiresAt } : {}) });
  });
  return { entries, bad };
}

/** The list with the new entries added, an address already listed replaced by its new entry. */
export function mergeEntries(list: readonly IpEntry[], added: readonly IpEntry[]): IpEntry[] {
  const byCidr = new Map(list.map((entry) => [entry.cidr, entry]));
  for (const entry of added) byCidr.set(entry.cidr, entry);
  return [...byCidr.values()];
}
