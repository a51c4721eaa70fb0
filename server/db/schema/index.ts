/** Every table, for drizzle-kit and for the typed database handle. */
export * from './activity.ts';
export * from './api-tokens.ts';
export * from './events.ts';
export * from './firewalls.ts';
export * from './ingest-batches.ts';
export * from './invitations.ts';
export * from './jobs.ts';
export * from './memberships.ts';
export * from './one-time-tokens.ts';
export * from './outbox.ts';
export * from './rate-limits.ts';
export * from './saved-searches.ts';
export * from './sessions.ts';
export * from './sources.ts';
export * from './spaces.ts';
export * from './usage.ts';
export * from './users.ts';
