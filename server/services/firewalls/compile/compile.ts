import { createHash } from 'node:crypto';
import type { FirewallSettings, IpEntry } from '../../../../contract/firewall-settings.ts';
import type { CrsCatalog } from '../engine/crs-catalog.ts';
import { countryFile } from './custom-rules.ts';
import { UnsafeValueError } from './escape.ts';
import { compileModsecurity } from './modsecurity-conf.ts';
import { modsecNetworks } from './networks.ts';
import { compileNginx } from './nginx-conf.ts';

/**
 * Everything a compilation depends on: same input, same bytes. The version number is not part of it (the API and the
 * connector know it), so a rollback or a save that changes nothing compiles to the restored version's bytes and hash.
 */
export type CompileInput = {
  firewallId: string;
  settings: FirewallSettings;
  catalog: CrsCatalog;
  /** IP list entries whose `expiresAt` is at or before this instant are left out. */
  now: Date;
};

/** The files of one config folder, by relative name, and the sha256 that names this exact content. */
export type CompiledFirewall = { files: Record<string, string>; hash: string };

/** The live entries of an IP list, canonical, deduplicated and sorted; `null` when none is left. */
function listFile(entries: readonly IpEntry[], now: Date): string | null {
  const live = entries.filter((entry) => !entry.expiresAt || Date.parse(entry.expiresAt) > now.getTime());
  const cidrs = [...new Set(live.flatMap((entry) => modsecNetworks(entry.cidr)))].sort();
  return cidrs.length === 0 ? null : cidrs.map((cidr) => `${cidr}\n`).join('');
}

/**
 * When the compiled files next change by themselves: the earliest IP list expiry after `now`, or null. The files drop
 * expired entries only when compiled, so the API compiles a new version at that time.
 */
export function nextExpiry(settings: Pick<FirewallSettings, 'ipAllow' | 'ipDeny'>, now: Date): Date | null {
  const times = [...settings.ipAllow, ...settings.ipDeny]
    .map((entry) => (entry.expiresAt ? Date.parse(entry.expiresAt) : Number.NaN))
    .filter((time) => time > now.getTime());
  return times.length === 0 ? null : new Date(Math.min(...times));
}

/** sha256 over the files sorted by name, each framed by its byte lengths so no two layouts hash alike. */
export function hashFiles(files: Record<string, string>): string {
  const hash = createHash('sha256');
  for (const name of Object.keys(files).sort()) {
    const content = files[name] ?? '';
    hash.update(`${Buffer.byteLength(name)}:${name}\n${Buffer.byteLength(content)}:`);
    hash.update(content);
    hash.update('\n');
  }
  return hash.digest('hex');
}

/**
 * The firewall compiler: settings → nginx and ModSecurity files (see README.md for the layout and what the host
 * provides). Pure and deterministic: no clock, no file system, no randomness; the CRS comes in as `catalog`.
 */
export function compileFirewall(input: CompileInput): CompiledFirewall {
  const { firewallId, settings, catalog, now } = input;
  if (!/^[A-Za-z0-9-]{1,64}$/.test(firewallId))
    throw new UnsafeValueError(`Not a firewall id: ${JSON.stringify(firewallId)}`);
  const header = `# Spaceguard firewall ${firewallId}. Generated from its settings: edit those, not this file.`;

  const lists: Record<string, string> = {};
  const allow = listFile(settings.ipAllow, now);
  const deny = listFile(settings.ipDeny, now);
  if (allow !== null) lists['ip-allow.txt'] = allow;
  if (deny !== null) lists['ip-deny.txt'] = deny;
  if (settings.countryBlock.length > 0) lists['country-block.txt'] = countryFile(settings.countryBlock);

  const modsecurity = compileModsecurity({ firewallId, settings, catalog, lists });
  const nginx = compileNginx({ firewallId, settings, header });
  const unsorted: Record<string, string> = {
    'http.conf': nginx.http,
    'server.conf': nginx.server,
    'modsecurity.conf': `${header}\n\n${modsecurity.text}`,
    ...lists,
    ...modsecurity.files,
  };
  const files: Record<string, string> = {};
  for (const name of Object.keys(unsorted).sort()) files[name] = unsorted[name] ?? '';
  return { files, hash: hashFiles(files) };
}
