/**
 * Firewalls: a firewall as the API answers it, its creation and edits, the versions every save makes, and the
 * connector's calls. The settings themselves are in firewall-settings.ts.
 */
import { z } from 'zod';
import { Id, SpaceParams, Timestamp } from './common.ts';
import { connectorStates, defaultThresholds, defaultTrustedProxies } from './constants/firewalls.ts';
import { Comment, FirewallSettings } from './firewall-settings.ts';
import { Person } from './members.ts';

/** The settings a new firewall starts with, besides what its creator gives. */
export const defaultFirewallSettings: Omit<FirewallSettings, 'name' | 'hostnames' | 'upstream' | 'mode'> = {
  trustedProxies: [...defaultTrustedProxies],
  managedRules: {
    paranoiaLevel: 1,
    inboundThreshold: defaultThresholds.inbound,
    outboundThreshold: defaultThresholds.outbound,
    disabledGroups: [],
    applications: [],
  },
  exclusions: [],
  customRules: [],
  ipAllow: [],
  ipDeny: [],
  countryBlock: [],
  rateLimits: [],
};

export const CreateFirewallBody = FirewallSettings.partial()
  .required({ name: true, hostnames: true, upstream: true, mode: true })
  .strict()
  .meta({ id: 'CreateFirewallBody' });
export type CreateFirewallBody = z.input<typeof CreateFirewallBody>;

/** Any subset of the settings, each given key replaced whole; `version` is the one the edit started from (409 when stale). */
export const UpdateFirewallBody = FirewallSettings.partial()
  .extend({ version: z.number().int().min(1).optional(), comment: Comment.optional() })
  .strict()
  .meta({ id: 'UpdateFirewallBody' });
export type UpdateFirewallBody = z.input<typeof UpdateFirewallBody>;

export const ConnectorStatus = z
  .object({
    state: z.enum(connectorStates),
    appliedVersion: z.number().int().nullable(),
    /** With state `failed`: the version that failed (`appliedVersion` keeps serving). */
    failedVersion: z.number().int().optional(),
    lastSeenAt: Timestamp.nullable(),
    /** The connector's words with its last report, e.g. the `nginx -t` message of a failed version. */
    message: z.string().optional(),
  })
  .meta({ id: 'ConnectorStatus' });
export type ConnectorStatus = z.infer<typeof ConnectorStatus>;

/** A firewall as the API answers it: its settings, newest version, connector state and 24 h figures. */
export const Firewall = FirewallSettings.extend({
  id: Id,
  spaceId: Id,
  version: z.number().int(),
  tokenPrefix: z.string(),
  connector: ConnectorStatus,
  createdAt: Timestamp,
  updatedAt: Timestamp,
}).meta({ id: 'Firewall' });
export type Firewall = z.infer<typeof Firewall>;

/** One row of the firewall list, with its events and blocked requests of the last 24 hours (hourly buckets). */
export const FirewallSummary = Firewall.pick({
  id: true,
  name: true,
  hostnames: true,
  upstream: true,
  mode: true,
  version: true,
  connector: true,
}).extend({
  events24h: z.number().int(),
  blocked24h: z.number().int(),
  hourly: z.array(z.object({ hour: Timestamp, events: z.number().int(), blocked: z.number().int() })),
});
export type FirewallSummary = z.infer<typeof FirewallSummary>;
export const FirewallList = z.object({ items: z.array(FirewallSummary) }).meta({ id: 'FirewallList' });

/** A firewall with its connector token: answered once at creation and at each rotation. */
export const CreatedFirewall = Firewall.extend({ token: z.string() }).meta({ id: 'CreatedFirewall' });
export type CreatedFirewall = z.infer<typeof CreatedFirewall>;

export const FirewallParams = SpaceParams.extend({ id: Id });
export const FirewallVersionParams = FirewallParams.extend({ version: z.coerce.number().int().min(1) });

export const DeleteFirewallBody = z.object({ confirmName: z.string().max(200) }).meta({ id: 'DeleteFirewallBody' });
export const RollbackBody = z
  .object({ version: z.number().int().min(1), comment: Comment.optional() })
  .meta({ id: 'RollbackBody' });

export const FirewallVersionSummary = z
  .object({
    version: z.number().int(),
    createdAt: Timestamp,
    author: Person,
    comment: z.string().optional(),
    hash: z.string(),
  })
  .meta({ id: 'FirewallVersionSummary' });
export const FirewallVersionList = z
  .object({ items: z.array(FirewallVersionSummary) })
  .meta({ id: 'FirewallVersionList' });

/** One version: the settings as saved and the files they compiled to. */
export const FirewallVersion = FirewallVersionSummary.extend({
  settings: FirewallSettings,
  files: z.record(z.string(), z.string()),
}).meta({ id: 'FirewallVersion' });
export type FirewallVersion = z.infer<typeof FirewallVersion>;

/** What the connector pulls: the newest version's files, by relative name. */
export const ConnectorConfig = z
  .object({ firewallId: Id, version: z.number().int(), hash: z.string(), files: z.record(z.string(), z.string()) })
  .meta({ id: 'ConnectorConfig' });
export type ConnectorConfig = z.infer<typeof ConnectorConfig>;

export const ConnectorConfigQuery = z.object({ wait: z.coerce.number().int().min(0).max(60).optional() });

export const ConnectorStatusBody = z
  .object({
    version: z.number().int().min(1),
    state: z.enum(['applied', 'failed']),
    message: z.string().max(4000).optional(),
  })
  .meta({ id: 'ConnectorStatusBody' });

/** 409 for a save that started from an older version: the message names both versions and who saved the newer one. */
export const FirewallConflict = z
  .object({ error: z.object({ code: z.literal('version_conflict'), message: z.string(), current: Firewall }) })
  .meta({ id: 'FirewallConflict' });
