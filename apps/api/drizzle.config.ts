import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  // Every module's tables, each in its own `<module>.table.ts`: a new module's are found by name.
  schema: './src/modules/*/*.table.ts',
  out: './migrations',
});
