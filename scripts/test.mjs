// `npm test`: every check a change must pass, in the order that fails fastest (lint, format,
// types, then the unit/API tests and the browser journeys). With TEST_DATABASE_URL set (CI sets
// it), the API and database suites run once more on that PostgreSQL server, cluster tests
// included. Each stage prints how long it took, so a CI log shows where its minutes go; the
// first failing step stops the run with its code.
//
// Steps that share a line below run side by side: the machine has two cores, and each pair is
// one CPU-bound job beside one that mostly waits (lint beside the type check; the browser
// journeys, which wait on Chromium and real daemons, beside the PostgreSQL suites with one worker).
// Only the first of a pair writes to the terminal as it goes; the others' output is held and
// printed whole when they finish, so the log never interleaves.
import { spawn } from 'node:child_process';

const postgres = process.env.TEST_DATABASE_URL;

const steps = [
  [
    ['lint', 'npm run lint'],
    [
      'format, lockfile audit, deployment files, types',
      'npm run format:check && npm run audit:lockfile && npm run validate:deploy && npm run typecheck',
    ],
  ],
  [['unit and API tests', 'npm run test:unit']],
  [
    ['browser journeys', 'npm run test:e2e'],
    ...(postgres
      ? [
          [
            'API and database suites on PostgreSQL',
            'npm run test:db -- --maxWorkers=1',
            { DATABASE_URL: postgres },
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
