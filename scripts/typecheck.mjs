// Type-checks every workspace with its own tsconfig (the web app needs DOM and JSX, the
// server needs Node's types), so one `npm run typecheck` covers the whole repository. Two
// checks run at a time (each tsc is single-threaded; CI has two cores); each prints its own
// errors when it ends, so the output of one never interleaves with another's.
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';

const projects = ['.', 'packages/contract', 'packages/pricing', 'apps/api', 'apps/agent', 'apps/web', 'e2e'];

function check(project) {
  return new Promise((resolve) => {
    const child = spawn('npx', ['tsc', '--noEmit', '-p', project], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => {
      process.stdout.write(code === 0 ? `typecheck ok: ${project}\n` : output);
      resolve(code === 0);
    });
  });
}

const queue = [...projects];
let failed = false;
const worker = async () => {
  for (let project = queue.shift(); project !== undefined; project = queue.shift()) {
    if (!(await check(project))) failed = true;
  }
};
await Promise.all(Array.from({ length: Math.max(2, availableParallelism() - 1) }, worker));
process.exit(failed ? 1 : 0);
