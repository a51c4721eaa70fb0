/** What the one-process server (server/main.ts) needs from the API. */
export { createApi } from './api.ts';
export { type AppType, type CreateAppOptions, createApp } from './app.ts';
export { type ApiConfig, readConfig } from './config.ts';
export { type Database, type Db, migrate, openDatabase } from './db/index.ts';
