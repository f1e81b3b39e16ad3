// `npm test`: every check a change must pass, in the order that fails fastest (lint, format,
// types, then the tests). Each stage prints how long it took, so a CI log shows where its minutes
// go; the first failing step stops the run with its code.
//
// Steps that share a group below run side by side: the machine has two cores, and each group pairs
// CPU-bound work with work that mostly waits (the build beside the type check; lint beside the unit
// tests; the live journeys, which wait on real daemons, beside the other journeys, which wait on
// Chromium, and the PGlite files).
// Only the first of a group writes to the terminal as it goes; the others' output is held and
// printed whole when each finishes, so the log never interleaves.
//
// With TEST_DATABASE_URL set (CI sets it), the API tests run on that PostgreSQL server, the
// production database, cluster tests included; PGlite, the embedded default, is then proven by the
// browser journeys (the whole product runs on it there) and by the API files that test the
// database layer, the job queue and the embedded process themselves, run on it once more. The API
// suite used to run whole on both, which was a third of CI's time for the same SQL (PGlite is
// PostgreSQL compiled to WebAssembly): docs/decisions/0018-api-tests-on-one-database.md.
import { spawn } from 'node:child_process';

const postgres = process.env.TEST_DATABASE_URL;

/** The API files whose subject is the embedded database or process itself (see above). */
const PGLITE_FILES = [
  'src/db',
  'src/worker.test.ts',
  'src/embedded-agent.test.ts',
  'src/private-dir.test.ts',
  'src/modules/health',
  'src/http/database-errors.security.test.ts',
  'src/cli/ops/jobs.test.ts',
  'src/modules/payments/sandbox-ledger.test.ts',
  'src/modules/nodes/node-calls.test.ts',
];

const E2E = 'npx vitest run --config e2e/vitest.config.ts';

const steps = [
  [
    [
      'format, lockfile audit, deployment files, types',
      'npm run format:check && npm run audit:lockfile && npm run validate:deploy && npm run typecheck',
    ],
    // The web app's build is the journeys', done here where it waits for nothing.
    ['web app build', 'npm run build'],
  ],
  // Not beside the journeys: the agent's live tests measure the node's disk and make loop devices
  // and namespaces, and the journeys' live workspaces change the same machine under them (a
  // rehearsal with both at once failed a disk measure, a clean-up and a sign-in's 30 s wait).
  // Lint beside them: the unit and API tests keep about one core of two busy (most of their files
  // wait on daemons, namespaces and the database), and lint is one core's work for four minutes.
  [
    postgres
      ? ['unit and API tests (the API on PostgreSQL)', 'npm run test:unit', { DATABASE_URL: postgres }]
      : ['unit and API tests', 'npm run test:unit'],
    ['lint', 'npm run lint'],
  ],
  // The live journeys (real workspaces, one at a time) beside the others (one at a time too, on the
  // product the global setup starts): e2e/vitest.config.ts. The unit tests' live suites stay apart.
  [
    ['browser journeys with live workspaces', `${E2E} --project e2e-live`],
    ['browser journeys', `${E2E} --project e2e`],
    ...(postgres
      ? [
          [
            'API tests of the embedded database (PGlite)',
            `npx vitest run --project api ${PGLITE_FILES.join(' ')}`,
          ],
        ]
      : []),
  ],
];

function run([name, command, env = {}], live) {
  const startedAt = Date.now();
  console.log(
    `\n== ${name}: ${command}${live ? '' : ' (beside the step above; its output follows when done)'}`,
  );
  return new Promise((resolve) => {
    const child = spawn(command, {
      shell: true,
      env: { ...process.env, ...env },
      stdio: live ? 'inherit' : ['ignore', 'pipe', 'pipe'],
    });
    const held = [];
    child.stdout?.on('data', (chunk) => held.push(chunk));
    child.stderr?.on('data', (chunk) => held.push(chunk));
    child.on('close', (status) => {
      const seconds = ((Date.now() - startedAt) / 1000).toFixed(1);
      if (!live) process.stdout.write(`\n== ${name}: output\n${Buffer.concat(held).toString()}`);
      console.log(`== ${name}: ${status === 0 ? 'passed' : 'FAILED'} in ${seconds} s`);
      resolve({ name, status: status ?? 1, seconds });
    });
  });
}

const timings = [];
for (const group of steps) {
  const results = await Promise.all(group.map((step, index) => run(step, index === 0)));
  timings.push(...results.map((result) => `${result.name} ${result.seconds} s`));
  const failed = results.find((result) => result.status !== 0);
  if (failed) {
    console.log(`== stage times: ${timings.join(', ')}`);
    process.exit(failed.status);
  }
}
console.log(`\n== stage times: ${timings.join(', ')}`);
