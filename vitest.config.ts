import { defineConfig } from 'vitest/config';

// Unit and API tests of every workspace. Browser journeys have their own config in e2e/,
// because they need a built web app and a started server.
export default defineConfig({
  test: {
    projects: ['packages/*', 'apps/*'],
    reporters: ['default', './scripts/summary-reporter.ts'],
  },
});
