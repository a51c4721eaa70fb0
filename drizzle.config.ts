import { defineConfig } from 'drizzle-kit';

/** drizzle-kit generates versioned SQL migrations from the schema; the server applies them at start. */
export default defineConfig({
  dialect: 'postgresql',
  schema: './server/db/schema/index.ts',
  out: './server/db/migrations',
});
