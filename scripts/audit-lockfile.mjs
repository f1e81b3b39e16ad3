// Offline review of package-lock.json, run by `npm test` (npm audit needs an advisory service
// these machines cannot reach; see docs/dependencies.md). It fails when a dependency could
// arrive from anywhere but the npm registry or without a pinned checksum:
//   - every installed package has a sha512 `integrity` (npm refuses a tarball that differs);
//   - a `resolved` URL, when present, is on npm's configured registry, over https, under the
//     package's own name (`<registry>/<name>/-/…`);
//   - no git, file, http or tarball-URL versions; links point only into this repository's
//     workspaces;
//   - a package that runs an install script is one a reviewer has accepted (INSTALL_SCRIPTS).
// Usage: node scripts/audit-lockfile.mjs [path/to/package-lock.json]
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** The registry npm installs from (`npm run` exports it; else ask npm). */
function configuredRegistry() {
  const registry =
    process.env.npm_config_registry ||
    execFileSync('npm', ['config', 'get', 'registry'], { encoding: 'utf8' }).trim();
  return registry.endsWith('/') ? registry : `${registry}/`;
}
/** Packages allowed to run code at install time, and why. */
const INSTALL_SCRIPTS = new Map([
  ['esbuild', 'fetches its platform binary from its own optional npm package'],
  ['msw', 'writes its service worker into the web app (development only)'],
]);

export function auditLockfile(lock, registry) {
  const problems = [];
  const workspaces = new Set(
    Object.entries(lock.packages ?? {})
      .filter(([path, entry]) => path !== '' && !path.includes('node_modules/') && entry)
      .map(([path]) => path),
  );
  if (lock.lockfileVersion < 2)
    problems.push(`lockfileVersion ${lock.lockfileVersion}: regenerate with npm 7+`);
  for (const [path, entry] of Object.entries(lock.packages ?? {})) {
    if (!path.includes('node_modules/')) continue;
    const name = entry.name ?? path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
    if (entry.link) {
      if (!workspaces.has(entry.resolved))
        problems.push(`${path}: links outside the workspaces (${entry.resolved})`);
      continue;
    }
    if (!/^sha512-[A-Za-z0-9+/]+=*$/.test(entry.integrity ?? '')) {
      problems.push(`${path}: no sha512 integrity (${entry.integrity ?? 'none'})`);
    }
    if (!/^\d+\.\d+\.\d+/.test(entry.version ?? ''))
      problems.push(`${path}: version is not from a registry (${entry.version})`);
    if (entry.resolved !== undefined) {
      const expected = `${registry}${name}/-/`;
      if (!entry.resolved.startsWith(expected)) {
        problems.push(`${path}: resolved from ${entry.resolved}, expected ${expected}…`);
      }
    }
    if (entry.hasInstallScript) {
      const base = name.split('/').pop();
      if (!INSTALL_SCRIPTS.has(name) && !INSTALL_SCRIPTS.has(base)) {
        problems.push(`${path}: runs an install script; review it, then add it to INSTALL_SCRIPTS`);
      }
    }
  }
  return problems;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const file = process.argv[2] ?? 'package-lock.json';
  const lock = JSON.parse(readFileSync(file, 'utf8'));
  const registry = configuredRegistry();
  if (!registry.startsWith('https://')) {
    console.error(`npm's registry is ${registry}: packages must come over https`);
    process.exit(1);
  }
  const problems = auditLockfile(lock, registry);
  const count = Object.keys(lock.packages ?? {}).length;
  if (problems.length > 0) {
    console.error(`${file}: ${problems.length} problem(s) in ${count} entries:\n  ${problems.join('\n  ')}`);
    process.exit(1);
  }
  console.log(`${file}: ${count} entries, all from ${registry} with sha512 integrity`);
}
