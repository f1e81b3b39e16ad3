// Type-checks every workspace with its own tsconfig (the web app needs DOM and JSX, the
// server needs Node's types), so one `npm run typecheck` covers the whole repository.
import { spawnSync } from 'node:child_process';

const projects = ['.', 'packages/contract', 'packages/pricing', 'apps/api', 'apps/agent', 'apps/web', 'e2e'];
let failed = false;
for (const project of projects) {
  const result = spawnSync('npx', ['tsc', '--noEmit', '-p', project], { stdio: 'inherit' });
  if (result.status !== 0) failed = true;
  else console.log(`typecheck ok: ${project}`);
}
process.exit(failed ? 1 : 0);
