// `npm run validate:deploy`: checks the deployment files without a Docker daemon, a cluster or
// systemd running, so that a typo is caught in CI rather than on the first deploy:
//   - compose.yaml (and the Stripe overlay) through `docker compose config` / `docker-compose
//     config` with the example environment, refused without its secrets, the agents' address
//     pools apart, and each service's environment accepted by the API's or the agent's own
//     configuration parser, exactly as the process would read it at start;
//   - every Kubernetes manifest against the Kubernetes OpenAPI schemas (kubernetes-models), the
//     kustomization listing exactly the manifests, and the API's environment as the pods get it;
//   - every COPY/ADD source of the Dockerfiles present in the build context and not left out by
//     .dockerignore, and every build context/Dockerfile compose names;
//   - the systemd units (systemd-analyze verify when present) and their example environments.
// One line per file checked; any problem makes the exit status 1.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments, parse as parseYaml } from 'yaml';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { StatefulSet } from 'kubernetes-models/apps/v1/StatefulSet';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import { CronJob } from 'kubernetes-models/batch/v1/CronJob';
import { Job } from 'kubernetes-models/batch/v1/Job';
import { Ingress } from 'kubernetes-models/networking.k8s.io/v1/Ingress';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Namespace } from 'kubernetes-models/v1/Namespace';
import { Secret } from 'kubernetes-models/v1/Secret';
import { Service } from 'kubernetes-models/v1/Service';
import { ServiceAccount } from 'kubernetes-models/v1/ServiceAccount';
import { loadConfig } from '../apps/api/src/config.ts';
import { loadAgentConfig } from '../apps/agent/src/config.ts';

const root = path.resolve(import.meta.dirname, '..');
const rel = (file: string) => path.relative(root, file) || '.';
const started = Date.now();
let problems = 0;

function ok(file: string, what: string): void {
  process.stdout.write(`ok    ${rel(file)}: ${what}\n`);
}
function fail(file: string, message: string): void {
  problems += 1;
  process.stderr.write(`FAIL  ${rel(file)}: ${message.replace(/\n/g, '\n      ')}\n`);
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };
const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
/** A scalar as text; anything else (an object, a list) as nothing. */
const text = (value: Json | undefined): string =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : '';
const stringRecord = (value: Json | undefined): Record<string, string> =>
  isObject(value) ? Object.fromEntries(Object.entries(value).map(([key, item]) => [key, text(item)])) : {};

/** Files under a folder, recursively, relative paths with `/`. */
function listFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .sort();
}

/** The environment an API or agent process would get; its own config parser must accept it. */
function checkEnvironment(file: string, what: string, kind: 'api' | 'agent', env: Record<string, string>) {
  try {
    if (kind === 'api') {
      const config = loadConfig(env, root);
      ok(file, `${what}: the API accepts its environment (roles ${config.ROLES.join(',')})`);
    } else {
      const config = loadAgentConfig(env);
      ok(file, `${what}: the agent accepts its environment (node ${config.nodeName})`);
    }
  } catch (error) {
    fail(file, `${what}: ${(error as Error).message}`);
  }
}

// ---------------------------------------------------------------- .dockerignore and Dockerfiles

/** Docker's .dockerignore rules: root-anchored globs, `**` spans folders, `!` re-includes, last match wins. */
function dockerignoreMatcher(contextDir: string): (relativePath: string) => boolean {
  const file = path.join(contextDir, '.dockerignore');
  const rules = existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .map((line) => line.trim())
        .filter((line) => line !== '' && !line.startsWith('#'))
        .map((line) => {
          const negate = line.startsWith('!');
          const pattern = path.posix
            .normalize((negate ? line.slice(1) : line).trim())
            .replace(/^\/+|\/+$/g, '');
          let source = '';
          for (let i = 0; i < pattern.length; i += 1) {
            const char = pattern[i]!;
            if (pattern.startsWith('**/', i)) {
              source += '(?:.*/)?';
              i += 2;
            } else if (pattern.startsWith('**', i)) {
              source += '.*';
              i += 1;
            } else if (char === '*') source += '[^/]*';
            else if (char === '?') source += '[^/]';
            else source += char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
          }
          return { negate, regex: new RegExp(`^${source}$`) };
        })
    : [];
  return (relativePath) => {
    const parts = relativePath.split('/');
    // A pattern that matches a folder leaves out everything in it.
    const candidates = parts.map((_, index) => parts.slice(0, index + 1).join('/'));
    let excluded = false;
    for (const rule of rules) {
      if (candidates.some((candidate) => rule.regex.test(candidate))) excluded = !rule.negate;
    }
    return excluded;
  };
}

/** Instructions of a Dockerfile: continuation lines joined, comment lines dropped. */
function dockerfileInstructions(text: string): Array<{ line: number; keyword: string; args: string }> {
  const result: Array<{ line: number; keyword: string; args: string }> = [];
  let current: { line: number; text: string } | undefined;
  text.split('\n').forEach((raw, index) => {
    const trimmed = raw.trim();
    if (trimmed.startsWith('#') || (trimmed === '' && current === undefined)) return;
    const continued = trimmed.endsWith('\\');
    const piece = continued ? trimmed.slice(0, -1) : trimmed;
    current = current
      ? { line: current.line, text: `${current.text} ${piece}` }
      : { line: index + 1, text: piece };
    if (!continued) {
      const match = /^(\S+)\s*(.*)$/.exec(current.text.trim());
      if (match) result.push({ line: current.line, keyword: match[1]!.toUpperCase(), args: match[2]! });
      current = undefined;
    }
  });
  return result;
}

function checkDockerfile(dockerfile: string, contextDir: string): void {
  if (!existsSync(dockerfile)) return fail(dockerfile, 'Dockerfile not found');
  const ignored = dockerignoreMatcher(contextDir);
  const stages = new Set<string>();
  let sources = 0;
  let stageCount = 0;
  for (const { line, keyword, args } of dockerfileInstructions(readFileSync(dockerfile, 'utf8'))) {
    if (keyword === 'FROM') {
      stageCount += 1;
      const alias = /\s+as\s+(\S+)\s*$/i.exec(args);
      if (alias) stages.add(alias[1]!.toLowerCase());
      continue;
    }
    if (keyword !== 'COPY' && keyword !== 'ADD') continue;
    const words = args.trim().startsWith('[')
      ? (JSON.parse(args) as string[])
      : args.trim().split(/\s+/).filter(Boolean);
    const flags = words.filter((word) => word.startsWith('--'));
    const paths = words.filter((word) => !word.startsWith('--'));
    if (paths.length < 2) {
      fail(dockerfile, `line ${line}: ${keyword} needs a source and a destination`);
      continue;
    }
    const from = flags.find((flag) => flag.startsWith('--from='))?.slice('--from='.length);
    if (from !== undefined) {
      // Another stage's files (checked by its own instructions) or an image's.
      if (!stages.has(from.toLowerCase()) && !from.includes(':') && !from.includes('/'))
        fail(dockerfile, `line ${line}: --from=${from} names no earlier stage`);
      continue;
    }
    for (const source of paths.slice(0, -1)) {
      if (/^https?:\/\//.test(source)) continue;
      sources += 1;
      const relative = path.posix.normalize(source).replace(/^\/+|\/+$/g, '');
      const absolute = path.join(contextDir, relative);
      if (relative.startsWith('..')) fail(dockerfile, `line ${line}: ${source} is outside the build context`);
      else if (/[*?[]/.test(relative)) {
        const base = path.posix.dirname(relative);
        const name = new RegExp(
          `^${path.posix
            .basename(relative)
            .replace(/[.+^${}()|\\]/g, '\\$&')
            .replace(/\*/g, '.*')
            .replace(/\?/g, '.')}$`,
        );
        const found = existsSync(path.join(contextDir, base))
          ? readdirSync(path.join(contextDir, base)).filter((entry) => name.test(entry))
          : [];
        if (found.length === 0)
          fail(dockerfile, `line ${line}: ${source} matches nothing in the build context`);
      } else if (relative !== '.' && !existsSync(absolute))
        fail(dockerfile, `line ${line}: ${source} does not exist in the build context ${rel(contextDir)}`);
      else if (relative !== '.' && ignored(relative))
        fail(dockerfile, `line ${line}: ${source} is left out of the build context by .dockerignore`);
    }
  }
  if (stageCount === 0) fail(dockerfile, 'no FROM instruction');
  ok(dockerfile, `${stageCount} stage(s), ${sources} COPY/ADD source(s) present in ${rel(contextDir)}`);
}

// --------------------------------------------------------------------------------- compose

function composeCommand(): string[] | undefined {
  const works = (command: string, args: string[]) =>
    spawnSync(command, args, { stdio: 'ignore', timeout: 30_000 }).status === 0;
  if (works('docker', ['compose', 'version'])) return ['docker', 'compose'];
  if (works('docker-compose', ['version'])) return ['docker-compose'];
  return undefined;
}

/** Integer ranges of an AGENT_ADDRESS_POOL ("a-b" ranges and single addresses, comma separated). */
function poolRanges(pool: string): Array<[number, number]> {
  const toNumber = (address: string) =>
    address
      .trim()
      .split('.')
      .reduce((sum, part) => sum * 256 + Number(part), 0);
  return pool
    .split(',')
    .filter((item) => item.trim() !== '')
    .map((item) => {
      const [first = '', last = first] = item.split('-');
      return [toNumber(first), toNumber(last)];
    });
}

function checkCompose(): void {
  const composeFile = path.join(root, 'compose.yaml');
  const stripeFile = path.join(root, 'deploy/compose.stripe.yaml');
  const envFile = path.join(root, 'deploy/compose.env.example');
  for (const file of [composeFile, stripeFile, envFile]) if (!existsSync(file)) return fail(file, 'missing');
  const command = composeCommand();
  if (!command) {
    return fail(
      composeFile,
      "neither `docker compose` nor `docker-compose` is installed: install Debian's docker-compose " +
        '(apt-get install -y --no-install-recommends docker-compose); no Docker daemon is needed',
    );
  }
  // Only what compose itself needs: a variable in the caller's shell would override the example's.
  const baseEnv: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, LANG: 'C.UTF-8' };
  const run = (files: string[], withEnvFile: boolean, env: NodeJS.ProcessEnv = {}) =>
    spawnSync(
      command[0]!,
      [
        ...command.slice(1),
        '--project-directory',
        root,
        ...files.flatMap((file) => ['-f', file]),
        ...(withEnvFile ? ['--env-file', envFile] : []),
        'config',
      ],
      { cwd: root, encoding: 'utf8', env: { ...baseEnv, ...env }, timeout: 60_000 },
    );

  const resolved = run([composeFile], true);
  if (resolved.status !== 0)
    return fail(composeFile, `${command.join(' ')} config failed:\n${resolved.stderr.trim()}`);
  ok(composeFile, `${command.join(' ')} config accepts it with ${rel(envFile)}`);

  const bare = run([composeFile], false);
  if (bare.status === 0) fail(composeFile, 'accepted without any secret set: required ones need ${VAR:?…}');
  else ok(composeFile, 'refused without its secrets');

  const stripe = run([composeFile, stripeFile], true, {
    STRIPE_SECRET_KEY: 'sk_test_validate_deploy',
    STRIPE_WEBHOOK_SECRET: 'whsec_validate_deploy',
  });
  if (stripe.status !== 0) fail(stripeFile, `config failed:\n${stripe.stderr.trim()}`);
  else ok(stripeFile, 'config accepts compose.yaml with this overlay');

  const config = parseYaml(resolved.stdout, { version: '1.1' }) as Json;
  const services = isObject(config) && isObject(config.services) ? config.services : {};
  const pools: Array<{ name: string; ranges: Array<[number, number]> }> = [];
  const stripeConfig = parseYaml(stripe.stdout || '{}', { version: '1.1' }) as Json;
  const stripeServices =
    isObject(stripeConfig) && isObject(stripeConfig.services) ? stripeConfig.services : {};
  for (const [name, service] of Object.entries(services)) {
    if (!isObject(service)) continue;
    const build = service.build;
    if (isObject(build) && typeof build.context === 'string') {
      const context = path.resolve(root, build.context);
      const dockerfile = path.resolve(
        context,
        typeof build.dockerfile === 'string' ? build.dockerfile : 'Dockerfile',
      );
      if (!existsSync(context)) fail(composeFile, `${name}: build context ${build.context} does not exist`);
      else if (!existsSync(dockerfile))
        fail(composeFile, `${name}: Dockerfile ${rel(dockerfile)} does not exist`);
      else ok(composeFile, `${name}: builds ${rel(dockerfile)} in ${rel(context)}`);
    }
    const env = stringRecord(service.environment);
    if ('AGENT_API_URL' in env) {
      checkEnvironment(composeFile, name, 'agent', env);
      pools.push({ name, ranges: poolRanges(env.AGENT_ADDRESS_POOL ?? '198.18.0.1-198.18.0.254') });
    } else if ('ROLES' in env) {
      checkEnvironment(composeFile, name, 'api', env);
      const withStripe = stripeServices[name];
      if (isObject(withStripe))
        checkEnvironment(stripeFile, name, 'api', stringRecord(withStripe.environment));
    }
  }
  // Two nodes handing out one address would put it in two workspaces.
  const benchmark: [number, number] = [198 * 2 ** 24 + 18 * 2 ** 16, 198 * 2 ** 24 + 20 * 2 ** 16 - 1];
  pools.forEach((pool, index) => {
    for (const [first, last] of pool.ranges) {
      if (first < benchmark[0] || last > benchmark[1])
        fail(composeFile, `${pool.name}: AGENT_ADDRESS_POOL leaves 198.18.0.0/15`);
      for (const other of pools.slice(index + 1))
        if (other.ranges.some(([a, b]) => a <= last && first <= b))
          fail(composeFile, `${pool.name} and ${other.name}: AGENT_ADDRESS_POOL ranges overlap`);
    }
  });
  if (pools.length > 0) ok(composeFile, `${pools.length} agent address pool(s), inside 198.18.0.0/15, apart`);
}

// ------------------------------------------------------------------------------- Kubernetes

type ModelClass = new (data: never) => { validate(): void };
/** The kinds the manifests may use; another kind needs its model here to be checked. */
const MODELS: Record<string, ModelClass> = {
  'v1/Namespace': Namespace,
  'v1/ConfigMap': ConfigMap,
  'v1/Secret': Secret,
  'v1/Service': Service,
  'v1/ServiceAccount': ServiceAccount,
  'apps/v1/Deployment': Deployment,
  'apps/v1/StatefulSet': StatefulSet,
  'batch/v1/Job': Job,
  'batch/v1/CronJob': CronJob,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'networking.k8s.io/v1/Ingress': Ingress,
  'networking.k8s.io/v1/NetworkPolicy': NetworkPolicy,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
};

function checkKubernetes(): void {
  const dir = path.join(root, 'deploy/kubernetes');
  const kustomizationFile = path.join(dir, 'kustomization.yaml');
  const manifests = listFiles(dir).filter((file) => /\.ya?ml$/.test(file) && file !== 'kustomization.yaml');
  if (manifests.length === 0) return fail(dir, 'no manifests');
  const objects: JsonObject[] = [];

  for (const file of manifests) {
    const absolute = path.join(dir, file);
    // Kubernetes reads YAML 1.1 (`yes`, `on`, `0755` are not strings there): so does this check.
    const documents = parseAllDocuments(readFileSync(absolute, 'utf8'), { version: '1.1' });
    let count = 0;
    for (const document of Array.isArray(documents) ? documents : [documents]) {
      if (document.errors.length > 0) {
        fail(absolute, document.errors.map((error) => error.message).join('\n'));
        continue;
      }
      const value = document.toJS() as Json;
      if (value === null) continue;
      count += 1;
      if (!isObject(value) || typeof value.apiVersion !== 'string' || typeof value.kind !== 'string') {
        fail(absolute, `document ${count}: not a Kubernetes object (apiVersion and kind)`);
        continue;
      }
      const name = isObject(value.metadata) ? value.metadata.name : undefined;
      const label = `${value.kind} ${typeof name === 'string' ? name : '(no name)'}`;
      const Model = MODELS[`${value.apiVersion}/${value.kind}`];
      if (!Model) {
        fail(absolute, `${label}: no schema for ${value.apiVersion} ${value.kind}; add its model to MODELS`);
        continue;
      }
      try {
        new Model(value as never).validate();
      } catch (error) {
        fail(absolute, `${label}: ${(error as Error).message}`);
        continue;
      }
      if (typeof name !== 'string') fail(absolute, `${label}: metadata.name is required`);
      objects.push(value);
    }
    if (count === 0) fail(absolute, 'no Kubernetes object in it');
    else ok(absolute, `${count} object(s) valid against the Kubernetes schemas`);
  }

  // What the API server refuses but the schema allows: a selector its own pods do not match.
  for (const object of objects) {
    if (object.kind !== 'Deployment' && object.kind !== 'StatefulSet') continue;
    const spec = isObject(object.spec) ? object.spec : {};
    const selector = isObject(spec.selector) ? stringRecord(spec.selector.matchLabels) : {};
    const template =
      isObject(spec.template) && isObject(spec.template.metadata) ? spec.template.metadata : {};
    const labels = stringRecord(template.labels);
    const name = isObject(object.metadata) ? text(object.metadata.name) : '';
    if (Object.entries(selector).some(([key, value]) => labels[key] !== value))
      fail(dir, `${object.kind} ${name}: spec.selector does not match its pod template's labels`);
  }

  // The API's pods: the ConfigMap and Secret they load plus their own env, as loadConfig reads it.
  const byName = (kind: string, name: string) =>
    objects.find((o) => o.kind === kind && isObject(o.metadata) && o.metadata.name === name);
  for (const object of objects) {
    if (object.kind !== 'Deployment' || !isObject(object.spec) || !isObject(object.spec.template)) continue;
    const podSpec = object.spec.template.spec;
    const containers = isObject(podSpec) && Array.isArray(podSpec.containers) ? podSpec.containers : [];
    for (const container of containers) {
      if (!isObject(container)) continue;
      const env: Record<string, string> = {};
      for (const source of Array.isArray(container.envFrom) ? container.envFrom : []) {
        if (!isObject(source)) continue;
        const ref = isObject(source.configMapRef) ? source.configMapRef : undefined;
        const secretRef = isObject(source.secretRef) ? source.secretRef : undefined;
        const found = ref
          ? byName('ConfigMap', text(ref.name))
          : secretRef
            ? byName('Secret', text(secretRef.name))
            : undefined;
        if (!found) {
          fail(
            dir,
            `${text(container.name)}: envFrom names a ConfigMap or Secret not among the valid manifests`,
          );
          continue;
        }
        Object.assign(env, stringRecord(found.data), stringRecord(found.stringData));
      }
      for (const item of Array.isArray(container.env) ? container.env : []) {
        if (!isObject(item)) continue;
        // A field of the pod (status.podIP) stands as an address; `$(NAME)` expands as kubelet does.
        if (isObject(item.valueFrom) && isObject(item.valueFrom.fieldRef)) env[text(item.name)] = '10.0.0.1';
        if (typeof item.value === 'string')
          env[text(item.name)] = item.value.replace(
            /\$\(([A-Z0-9_]+)\)/g,
            (whole, name: string) => env[name] ?? whole,
          );
      }
      if ('ROLES' in env) {
        const name = isObject(object.metadata) ? text(object.metadata.name) : '';
        checkEnvironment(path.join(dir, `${name} (Deployment)`), text(container.name), 'api', env);
      }
    }
  }

  if (!existsSync(kustomizationFile)) return fail(kustomizationFile, 'missing');
  const kustomization = parseYaml(readFileSync(kustomizationFile, 'utf8'), { version: '1.1' }) as Json;
  if (!isObject(kustomization) || kustomization.kind !== 'Kustomization')
    return fail(kustomizationFile, 'not a Kustomization');
  const resources = Array.isArray(kustomization.resources) ? kustomization.resources.map(String) : [];
  const listed = new Set(resources.map((resource) => path.posix.normalize(resource)));
  const missing = resources.filter((resource) => !existsSync(path.join(dir, resource)));
  const unlisted = manifests.filter((file) => !listed.has(file));
  if (missing.length > 0) fail(kustomizationFile, `lists files that do not exist: ${missing.join(', ')}`);
  if (unlisted.length > 0) fail(kustomizationFile, `does not list: ${unlisted.join(', ')}`);
  if (missing.length === 0 && unlisted.length === 0)
    ok(kustomizationFile, `lists all ${manifests.length} manifests and nothing else`);
}

// ---------------------------------------------------------------------------------- systemd

/** `KEY=value` lines of an env file (systemd's EnvironmentFile=, compose's --env-file). */
function readEnvFile(file: string): Record<string, string> | undefined {
  const env: Record<string, string> = {};
  const lines = readFileSync(file, 'utf8').split('\n');
  for (const [index, line] of lines.entries()) {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const match = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(trimmed);
    if (!match) {
      fail(file, `line ${index + 1}: not NAME=value`);
      return undefined;
    }
    env[match[1]!] = match[2]!;
  }
  return env;
}

function unitSections(text: string): Map<string, Map<string, string[]>> {
  const sections = new Map<string, Map<string, string[]>>();
  let current: Map<string, string[]> | undefined;
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#') || trimmed.startsWith(';')) continue;
    const section = /^\[(.+)\]$/.exec(trimmed);
    if (section) {
      current = new Map();
      sections.set(section[1]!, current);
      continue;
    }
    const pair = /^([A-Za-z]+)\s*=\s*(.*)$/.exec(trimmed);
    if (pair && current) current.set(pair[1]!, [...(current.get(pair[1]!) ?? []), pair[2]!]);
  }
  return sections;
}

function checkSystemd(): void {
  const dir = path.join(root, 'deploy/systemd');
  const units = listFiles(dir).filter((file) => file.endsWith('.service'));
  if (units.length === 0) return fail(dir, 'no units');
  const analyze = spawnSync('systemd-analyze', ['--version'], { stdio: 'ignore' }).status === 0;

  for (const unit of units) {
    const file = path.join(dir, unit);
    const sections = unitSections(readFileSync(file, 'utf8'));
    const value = (section: string, key: string) => sections.get(section)?.get(key)?.at(-1);
    const required: Array<[string, string]> = [
      ['Unit', 'Description'],
      ['Service', 'ExecStart'],
      ['Service', 'Restart'],
      ['Service', 'WorkingDirectory'],
      ['Service', 'EnvironmentFile'],
      ['Install', 'WantedBy'],
    ];
    const absent = required.filter(([section, key]) => value(section, key) === undefined);
    if (absent.length > 0) {
      fail(file, `missing ${absent.map(([section, key]) => `[${section}] ${key}=`).join(', ')}`);
      continue;
    }
    const execStart = value('Service', 'ExecStart')!;
    if (!execStart.startsWith('/')) fail(file, 'ExecStart= must start with an absolute path');
    // The agent's daemons must outlive it (agent.ts stop() leaves them for the next start to adopt).
    if (execStart.includes('apps/agent/') && value('Service', 'KillMode') !== 'process')
      fail(file, "KillMode=process: any other mode kills the workspaces' daemons with the agent");

    if (analyze) {
      const result = spawnSync('systemd-analyze', ['verify', file], { encoding: 'utf8', timeout: 60_000 });
      const output = `${result.stdout}\n${result.stderr}`
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean);
      // The program is the target host's (Node in /usr/bin); a machine without it there still
      // verifies the rest of the unit.
      const program = execStart.split(/\s+/)[0]!;
      const findings = output.filter(
        (line) =>
          line.includes(unit) &&
          !(line.includes(`Command ${program} is not executable`) && !existsSync(program)),
      );
      if (findings.length > 0) fail(file, `systemd-analyze verify:\n${findings.join('\n')}`);
      else if (result.status === 0) ok(file, 'systemd-analyze verify: no findings');
      else ok(file, `systemd-analyze verify: no findings in it (${program} is not on this machine)`);
    } else ok(file, 'required sections and keys present (systemd-analyze not installed)');
  }

  // The example environments: the agent's and the control plane's, as those parsers read them.
  for (const example of listFiles(dir).filter((file) => file.endsWith('.env.example'))) {
    const file = path.join(dir, example);
    const env = readEnvFile(file);
    if (!env) continue;
    if ('AGENT_API_URL' in env) checkEnvironment(file, 'example', 'agent', env);
    else {
      checkEnvironment(file, 'example as debesis-api', 'api', { ...env, ROLES: 'api' });
      checkEnvironment(file, 'example as debesis-worker', 'api', { ...env, ROLES: 'worker' });
    }
  }
}

function main(): void {
  const dockerfiles = listFiles(path.join(root, 'deploy/docker')).filter((file) =>
    file.endsWith('Dockerfile'),
  );
  for (const dockerfile of dockerfiles) checkDockerfile(path.join(root, 'deploy/docker', dockerfile), root);
  checkCompose();
  checkKubernetes();
  checkSystemd();
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (problems > 0) {
    process.stderr.write(`validate:deploy: ${problems} problem(s) (${seconds} s)\n`);
    process.exit(1);
  }
  process.stdout.write(`validate:deploy: all deployment files check out (${seconds} s)\n`);
}

main();
