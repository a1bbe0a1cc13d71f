import { defineConfig } from 'drizzle-kit';

// Migrations are generated from the schema and applied by the app on start (src/platform/db).
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/platform/db/schema.ts',
  out: './drizzle',
});
