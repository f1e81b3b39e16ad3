import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import ClusterFirstSequencer from './scripts/cluster-first-sequencer.ts';

// Unit and API tests of every workspace. Browser journeys have their own config in e2e/,
// because they need a built web app and a started server.
export default defineConfig({
  test: {
    projects: ['packages/*', 'apps/*'],
    // Files and the tests inside them run in a random order (every project: vitest reads this
    // here), so a test that leans on another's leftovers fails, the long cluster suites first
    // (scripts/cluster-first-sequencer.ts). The seed is printed at the start; `--sequence.seed=N`
    // repeats an order.
    sequence: { sequencer: ClusterFirstSequencer, shuffle: { files: false, tests: true } },
    // Two test files at a time even on two cores (Vitest's own default there is one): a good part
    // of the suite waits on real daemons, namespaces and PGlite's disk, so two files keep both
    // cores busy. Measured on the CI machine's size: 1,191 s with one, 499 s with two.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    reporters: ['default', './scripts/summary-reporter.ts'],
  },
});
