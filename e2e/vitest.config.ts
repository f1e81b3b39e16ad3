import { defineConfig } from 'vitest/config';

// Browser journeys against the whole product, started once by the global setup. Files run one
// at a time: each drives a real Chromium, and the machine has two cores.
export default defineConfig({
  test: {
    name: 'e2e',
    include: ['e2e/**/*.e2e.ts'],
    globalSetup: ['e2e/support/global-setup.ts'],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    reporters: ['default', './scripts/summary-reporter.ts'],
  },
});
