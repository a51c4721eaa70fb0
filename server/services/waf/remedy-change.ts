/** What a remedy does to a firewall's settings, as a pure function: the new settings and the words that say so. */
import type { Exclusion, FirewallSettings, IpEntry } from '../../../contract/firewall-settings.ts';
import { type IpNetwork, networkContains, parseNetwork } from '../../../contract/query/ip.ts';
import { type Remedy, remedyCommentPrefix } from '../../../contract/waf.ts';

/** The settings a remedy makes, whether the firewall already did it, and its sentence, version comment and audit. */
export type RemedyChange = {
  settings: FirewallSettings;
  alreadyInPlace: boolean;
  /** One sentence for the person about to apply it. */
  change: string;
  /** The new version's comment, such as "Block 203.0.113.7 for 24 h (WAF discover)". */
  versionComment: string;
  /** Where the change lands in the settings: the deny list or the exclusions, and the entry's index there. */
  at: { list: 'ipDeny' | 'exclusions'; index: number };
};

/** A network as people write it: a single address without its /32 or /128. */
function networkText(cidr: string): string {
  return cidr.replace(/\/(32|128)$/, '');
}

/** A duration in minutes as people say it: "90 min", "24 h", "7 days". */
function durationText(minutes: number): string {
  if (minutes >= 2_880 && minutes % 1_440 === 0) return `${minutes / 1_440} days`;
  if (minutes % 60 === 0) return `${minutes / 60} h`;
  return `${minutes} min`;
}

/** The comment an entry gets: where it came from, then the person's words. */
function entryComment(kind: Remedy['kind'], comment: string | undefined): string {
  const prefix = remedyCommentPrefix[kind];
  return comment ? `${prefix}${comment}` : prefix.replace(/: $/, '');
}

/** True when an entry is still in force at `now`. */
const live = (entry: IpEntry, now: Date) => !entry.expiresAt || Date.parse(entry.expiresAt) > now.getTime();

/** True when `outer` holds every address of `inner`. */
function covers(outer: IpNetwork, inner: IpNetwork): boolean {
  return outer.version === inner.version && outer.prefix <= inner.prefix && networkContains(outer, inner);
}

/**
 * Blocks a network until `now` + the duration: an entry for the same network has its expiry moved (never shortened),
 * any other gets a new entry; a live entry that covers the network at least as long means it is already in place.
 */
function blockIp(settings: FirewallSettings, remedy: Extract<Remedy, { kind: 'block-ip' }>, now: Date, name: string) {
  const minutes = remedy.durationMinutes;
  const until = minutes === null ? null : new Date(now.getTime() + minutes * 60_000);
  const target = parseNetwork(remedy.ip);
  const shown = networkText(remedy.ip);
  const duration = minutes === null ? 'for good' : `for ${durationText(minutes)}`;
  const versionComment = `Block ${shown} ${duration} (WAF discover)`;
  const lasting = settings.ipDeny.findIndex((entry) => {
    const network = parseNetwork(entry.cidr);
    // Durations are whole minutes: an entry ending less than a minute before the asked end is that same block.
    const longEnough = !entry.expiresAt || (until !== null && Date.parse(entry.expiresAt) > until.getTime() - 60_000);
    return live(entry, now) && longEnough && network !== null && target !== null && covers(network, target);
  });
  const existing = settings.ipDeny[lasting];
  if (existing) {
    const how = existing.expiresAt ? `until ${existing.expiresAt}` : 'with no end';
    const by = existing.cidr === remedy.ip ? '' : ` (by ${networkText(existing.cidr)})`;
    return {
      settings,
      alreadyInPlace: true,
      change: `${shown} is already in the deny list of “${name}” ${how}${by}: nothing to change.`,
      versionComment,
      at: { list: 'ipDeny' as const, index: lasting },
    };
  }
  const entry: IpEntry = {
    cidr: remedy.ip,
    comment: entryComment('block-ip', remedy.comment),
    ...(until ? { expiresAt: until.toISOString() } : {}),
  };
  const same = settings.ipDeny.findIndex((item) => item.cidr === remedy.ip);
  const ipDeny = [...settings.ipDeny];
  const index = same >= 0 ? same : ipDeny.length;
  const old = settings.ipDeny[same];
  // A live entry keeps its comment and only lasts longer; an expired one is replaced.
  const extended = old !== undefined && live(old, now);
  if (extended) {
    const { expiresAt: _ended, ...kept } = old;
    ipDeny[index] = until ? { ...kept, expiresAt: until.toISOString() } : kept;
  } else {
    ipDeny[index] = entry;
  }
  const verb = extended ? 'Extend the block of' : 'Deny';
  const change = until
    ? `${verb} ${shown} on “${name}” ${duration}, until ${until.toISOString().replace(/\.\d{3}Z$/, 'Z')}; the entry then expires by itself.`
    : `${verb} ${shown} on “${name}” for good: the entry stays until someone removes it.`;
  return {
    settings: { ...settings, ipDeny },
    alreadyInPlace: false,
    change,
    versionComment,
    at: { list: 'ipDeny' as const, index },
  };
}

/** Excludes a rule on a path prefix; an exclusion of that rule on the whole site or a shorter prefix means it is in place. */
function excludeRule(settings: FirewallSettings, remedy: Extract<Remedy, { kind: 'exclude-rule' }>, name: string) {
  const versionComment = `Exclude rule ${remedy.ruleId} on ${remedy.path} (WAF discover)`;
  const found = settings.exclusions.findIndex(
    (item) =>
      item.ruleId === remedy.ruleId &&
      !item.target &&
      !item.method &&
      (!item.path || remedy.path.startsWith(item.path)),
  );
  if (found >= 0) {
    const where = settings.exclusions[found]?.path ?? '/';
    return {
      settings,
      alreadyInPlace: true,
      change: `Rule ${remedy.ruleId} is already excluded on paths starting with ${where} on “${name}”: nothing to change.`,
      versionComment,
      at: { list: 'exclusions' as const, index: found },
    };
  }
  const exclusion: Exclusion = {
    ruleId: remedy.ruleId,
    path: remedy.path,
    comment: entryComment('exclude-rule', remedy.comment),
  };
  return {
    settings: { ...settings, exclusions: [...settings.exclusions, exclusion] },
    alreadyInPlace: false,
    change: `Stop rule ${remedy.ruleId} from matching requests to paths starting with ${remedy.path} on “${name}”.`,
    versionComment,
    at: { list: 'exclusions' as const, index: settings.exclusions.length },
  };
}

/** The settings a remedy makes from a firewall's current ones at `now`, with its sentence and version comment. */
export function remedyChange(settings: FirewallSettings, remedy: Remedy, now: Date): RemedyChange {
  return remedy.kind === 'block-ip'
    ? blockIp(settings, remedy, now, settings.name)
    : excludeRule(settings, remedy, settings.name);
}
