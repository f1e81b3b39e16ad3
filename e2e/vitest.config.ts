import { defineConfig } from 'vitest/config';

/**
 * Journeys that run real workspaces (root, loop devices, namespaces, the live address pool): each
 * starts a product of its own with live workspaces, so two at once would share the pool. They run
 * one at a time, in their own project, and nowhere else: useLiveProduct refuses a file outside it.
 */
const LIVE = 'e2e/**/*-live.e2e.ts';

// Browser journeys against the whole product. Two projects: `e2e`, the journeys on the product the
// global setup starts once, and `e2e-live` (above). Within each, files run one at a time: each
// drives a real Chromium, and the machine has two cores. `npm run test:e2e` runs both, one file
// at a time; `npm test` runs the two projects side by side (scripts/test.mjs), a live journey
// mostly waiting on daemons beside a browser one mostly painting.
export default defineConfig({
  test: {
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    reporters: ['default', './scripts/summary-reporter.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['e2e/**/*.e2e.ts'],
          exclude: [LIVE],
          globalSetup: ['e2e/support/global-setup.ts'],
        },
      },
      {
        extends: true,
        test: { name: 'e2e-live', include: [LIVE], provide: { liveJourney: true } },
      },
    ],
  },
});
