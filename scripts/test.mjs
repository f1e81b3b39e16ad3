// `npm test`: every check a change must pass, in the order that fails fastest (lint, format,
// types, then the unit/API tests and the browser journeys). Each stage prints how long it took,
// so a CI log shows where its minutes go; the first failing stage stops the run with its code.
import { spawnSync } from 'node:child_process';

const stages = [
  ['lint', 'npm run lint'],
  ['format', 'npm run format:check'],
  ['lockfile audit', 'npm run audit:lockfile'],
  ['types', 'npm run typecheck'],
  ['unit and API tests', 'npm run test:unit'],
  ['browser journeys', 'npm run test:e2e'],
];

const timings = [];
for (const [name, command] of stages) {
  const startedAt = Date.now();
  console.log(`\n== ${name}: ${command}`);
  const { status } = spawnSync(command, { shell: true, stdio: 'inherit' });
  const seconds = ((Date.now() - startedAt) / 1000).toFixed(1);
  timings.push(`${name} ${seconds} s`);
  console.log(`== ${name}: ${status === 0 ? 'passed' : 'FAILED'} in ${seconds} s`);
  if (status !== 0) {
    console.log(`== stage times: ${timings.join(', ')}`);
    process.exit(status ?? 1);
  }
}
console.log(`\n== stage times: ${timings.join(', ')}`);
