// `npm start`: build what is missing, then run the whole product in this one process —
// API, worker and the embedded local node — on the embedded database in ./data.
// The web app is rebuilt when its build is missing or older than its sources.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const webIndex = path.join(root, 'apps/web/dist/index.html');
const webSources = [
  'apps/web/src',
  'apps/web/public',
  'apps/web/index.html',
  'apps/web/vite.config.ts',
  'packages/contract/src',
  'packages/pricing/src',
];

function newestChange(target) {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(target).reduce(
    (newest, entry) => Math.max(newest, newestChange(path.join(target, entry))),
    stat.mtimeMs,
  );
}

const builtAt = existsSync(webIndex) ? statSync(webIndex).mtimeMs : 0;
const sourcesAt = Math.max(...webSources.map((source) => newestChange(path.join(root, source))));
if (builtAt < sourcesAt) {
  console.log(
    builtAt
      ? 'The web app changed since its last build: building it…'
      : 'Building the web app (first start)…',
  );
  const build = spawnSync('npm', ['run', 'build', '-w', '@debesis/web'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

process.chdir(root);
const { register } = await import('tsx/esm/api');
register();
await import('../apps/api/src/main.ts');
