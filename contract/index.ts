/** Every request and response schema of the API, for server and islands alike. */
export * from './activity.ts';
export * from './auth.ts';
export * from './common.ts';
export * from './errors.ts';
export * from './events.ts';
export * from './me.ts';
export * from './members.ts';
export * from './meta.ts';
export * from './saved-searches.ts';
export * from './sources.ts';
export * from './spaces.ts';
