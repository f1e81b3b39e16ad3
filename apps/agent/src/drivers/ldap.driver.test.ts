// The LDAP definition without slapd: what it renders (slapd.conf's rules, the directory), how a
// sync reaches slapd (one ldapmodify of the difference; nothing when nothing changed; read back
// from slapd when the record is gone; the database built again while slapd does not run) and the
// drift of an expiry date that passes. The real slapd is ldap.live.test.ts's.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ldapDirectoryNames,
  WORKSPACE_ID_FIRST_BASE as B,
  type LdapSectionState,
  type WorkspaceDesiredState,
} from '@debesis/contract';
import type { DaemonContext } from '../daemons/definition.ts';
import {
  CommandError,
  type CommandResult,
  type CommandRunner,
  type RunCommandOptions,
} from '../exec/run-command.ts';
import { commandResult } from '../testing/command-result.ts';
import { renderLdif } from '../ldap/render-directory.ts';
import { renderSlapdConf } from '../ldap/render-slapd-conf.ts';
import { silentLogger } from '../logger.ts';
import { desiredLdap, desiredUser, desiredWorkspace } from '../testing/desired.ts';
import { workspaceLayout } from '../workspace-layout.ts';
import { ldapDefinition, syncDirectory } from './ldap.driver.ts';

const ID = 'svc-ldap';
const NAMES = ldapDirectoryNames(ID);

let dir: string;
let calls: Array<{ argv: string[]; input?: string }>;
let answers: Record<string, Partial<CommandResult>>;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agent-ldap-'));
  // The workspace's folder is the workspace-dir driver's.
  await mkdir(join(dir, 'workspaces', ID), { recursive: true });
  calls = [];
  answers = {};
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

// Every program "works" (and fails as runCommand does with `check`); `answers` says otherwise. openssl is not installed, so no
// certificate is made (nor checked: slaptest is a stand-in too).
const fakeRun: CommandRunner = (command, args, options?: RunCommandOptions) => {
  calls.push({
    argv: [command, ...args],
    ...(typeof options?.input === 'string' ? { input: options.input } : {}),
  });
  const answer = answers[command] ?? {};
  const result = commandResult(command, args, {
    missing: command === 'openssl',
    ok: command !== 'openssl',
    ...answer,
  });
  return options?.check && !result.ok ? Promise.reject(new CommandError(result)) : Promise.resolve(result);
};

const workspaceDir = () => join(dir, 'workspaces', ID);
const context = (): DaemonContext => ({
  dataDir: dir,
  workspaceDir: workspaceDir(),
  logger: silentLogger,
  run: fakeRun,
  layout: workspaceLayout(workspaceDir()),
  dir: join(workspaceDir(), 'ldap'),
});
const files = () => workspaceLayout(workspaceDir()).ldap;

function state(ldap: Partial<LdapSectionState> = {}): WorkspaceDesiredState {
  return {
    ...desiredWorkspace({
      service_id: ID,
      address: '198.18.0.9',
      users: [
        { ...desiredUser('alice', B + 1), password_crypt: '$6$s$alice' },
        { ...desiredUser('bob', B + 2), password_crypt: '$6$s$bob' },
      ],
      groups: [{ name: 'team', gid: B + 10, members: ['alice'] }],
    }),
    ldap: desiredLdap(ldap),
  };
}

/** Renders `desired` and writes its files as the daemon driver would (unchecked here). */
async function render(desired: WorkspaceDesiredState, now = new Date('2025-01-15T12:00:00Z')) {
  const rendering = await ldapDefinition({ now: () => now }).render(desired, context());
  for (const file of rendering.files) await writeFile(file.path, file.head);
  return rendering;
}

describe('slapd.conf', () => {
  it('needs TLS for everything, lets only the agent write, hides hashes, lets anonymous read by an entry', () => {
    const conf = renderSlapdConf({
      base: NAMES.base,
      reader: NAMES.reader,
      anonymousSwitch: `cn=anonymous-read,${NAMES.base}`,
      agent: `cn=agent,${NAMES.base}`,
      certificate: '/d/ws/ldap/tls/slapd.pem',
      database: '/d/ws/ldap/db',
    });
    for (const schema of ['core', 'cosine', 'inetorgperson', 'nis'])
      expect(conf).toContain(`include "/etc/ldap/schema/${schema}.schema"`);
    expect(conf).toContain('moduleload back_mdb');
    expect(conf).toContain('security ssf=128 simple_bind=128');
    expect(conf).toContain('TLSCertificateKeyFile "/d/ws/ldap/tls/slapd.pem"');
    // root over ldapi (peer credentials) is the rootdn, which has no password.
    expect(conf).toContain(
      `authz-regexp "gidNumber=0\\\\+uidNumber=0,cn=peercred,cn=external,cn=auth" "cn=agent,${NAMES.base}"`,
    );
    expect(conf).toContain(`rootdn "cn=agent,${NAMES.base}"`);
    expect(conf).not.toMatch(/rootpw|write|manage/);
    expect(conf).toContain('access to attrs=userPassword by anonymous auth by * none');
    expect(conf).toContain(`by set="[cn=anonymous-read,${NAMES.base}]/objectClass" read`);
    expect(conf).toContain(`by dn.exact="${NAMES.reader}" read`);
  });

  it('an alias is a relay database rewritten to the base, with the base’s rules written for its DNs', async () => {
    const plain = await render(state());
    const conf = (await render(state({ alias: 'files' }))).files[0]?.head ?? '';
    expect(plain.files[0]?.head).not.toMatch(/relay|rwm/);
    expect(conf).toContain('moduleload back_relay\nmoduleload rwm\n');
    const relay = conf.slice(conf.indexOf('database relay'));
    expect(relay.split('\n').slice(0, 5)).toEqual([
      'database relay',
      'suffix "dc=files,dc=debesis"',
      `relay "${NAMES.base}"`,
      'overlay rwm',
      `rwm-suffixmassage "${NAMES.base}"`,
    ]);
    // Without rules of its own the relay would send no entry; its identities are the base's.
    expect(relay).toContain('access to attrs=userPassword by anonymous auth by * none');
    expect(relay).toContain('access to dn.base="cn=anonymous-read,dc=files,dc=debesis" by * none');
    expect(relay).toContain('access to dn.subtree="dc=files,dc=debesis"');
    expect(relay).toContain(`by dn.exact="${NAMES.reader}" read`);
    expect(relay).toContain(`by set="[cn=anonymous-read,${NAMES.base}]/objectClass" read`);
    expect(relay).not.toMatch(/write|manage|rootdn/);
  });

  it('quotes every value, escaping quotes and backslashes, and refuses a newline', () => {
    const conf = renderSlapdConf({
      base: 'dc=a\\,b,dc=debesis',
      reader: 'cn=reader,dc=a\\,b,dc=debesis',
      anonymousSwitch: 'cn=anonymous-read,dc=a\\,b,dc=debesis',
      agent: 'cn=agent,dc=a\\,b,dc=debesis',
      certificate: '/d/"quoted" dir/slapd.pem',
      database: '/d/db',
    });
    expect(conf).toContain('suffix "dc=a\\\\,b,dc=debesis"');
    expect(conf).toContain('TLSCertificateFile "/d/\\"quoted\\" dir/slapd.pem"');
    expect(() =>
      renderSlapdConf({
        base: 'dc=x\naccess to * by * write',
        reader: 'cn=r',
        anonymousSwitch: 'cn=a',
        agent: 'cn=agent',
        certificate: '/c',
        database: '/d',
      }),
    ).toThrow(/cannot be a slapd.conf value/);
  });
});

describe('the LDAP definition', () => {
  it('runs slapd on the workspace address (StartTLS and LDAPS) and on its ldapi socket; off is not needed', () => {
    const definition = ldapDefinition();
    const argv = definition.argv(state(), context());
    const socket = encodeURIComponent(files().ldapiSocket);
    expect(argv).toEqual([
      'slapd',
      '-d',
      '0',
      '-h',
      `ldap://198.18.0.9:389/ ldaps://198.18.0.9:636/ ldapi://${socket}`,
      '-f',
      files().conf,
    ]);
    expect(definition.argv(state({ port: null }), context())[4]).toBe(
      `ldaps://198.18.0.9:636/ ldapi://${socket}`,
    );
    expect(definition.listens(state({ ldaps_port: null }))).toEqual({ host: '198.18.0.9', port: 389 });
    expect(definition.notNeeded(state({ enabled: false }))).toBe('LDAP is off');
    expect(definition.notNeeded({ ...state(), ldap: undefined })).toBe('LDAP is off');
    expect(definition.notNeeded(state())).toBeUndefined();
  });

  it('refuses settings that offer no TLS port or one port twice', async () => {
    await expect(render(state({ port: null, ldaps_port: null }))).rejects.toThrow(
      /neither StartTLS nor LDAPS/,
    );
    await expect(render(state({ port: 636, ldaps_port: 636 }))).rejects.toThrow(/cannot share port 636/);
  });

  it('refuses the service id as the alias (two databases under one suffix: slapd would not start)', async () => {
    await expect(render(state({ alias: ID }))).rejects.toThrow(/alias cannot be the service id/);
  });

  it('an expiry date that passes is drift, once its instant is reached', async () => {
    await render(state({ users: [{ name: 'bob', suspended: false, expires_on: '2025-01-15' }] }));
    expect(await readFile(files().expiryDue, 'utf8')).toBe('2025-01-15T22:00:00.000Z');
    const at = (iso: string) => ldapDefinition({ now: () => new Date(iso) });
    expect(await at('2025-01-15T21:59:59Z').drift!(state(), context())).toBeUndefined();
    expect(await at('2025-01-15T22:00:00Z').drift!(state(), context())).toMatch(/expiry date has passed/);
    // Once applied past it, bob is locked and nothing is due any more.
    await render(
      state({ users: [{ name: 'bob', suspended: false, expires_on: '2025-01-15' }] }),
      new Date('2025-01-16T00:00:00Z'),
    );
    expect(await readFile(files().expiryDue, 'utf8')).toBe('');
  });
});

describe('syncing the directory into slapd', () => {
  it('while slapd does not run: builds the database from the wanted directory with slapadd', async () => {
    await render(state());
    calls = [];
    const actions = await syncDirectory(state(), files(), fakeRun, false);
    expect(actions).toEqual(['built the LDAP directory (7 entries)']);
    expect(calls.map((call) => call.argv)).toEqual([
      ['slapadd', '-q', '-f', files().conf, '-l', files().wanted],
    ]);
    expect(await readFile(files().applied, 'utf8')).toBe(await readFile(files().wanted, 'utf8'));
    const status = JSON.parse(await readFile(files().status, 'utf8')) as Record<string, unknown>;
    expect(status).toMatchObject({ users: 2, groups: 2, locked_users: [] });
    // A stopped workspace's is built when it starts.
    calls = [];
    expect(await syncDirectory({ ...state(), state: 'stopped' }, files(), fakeRun, false)).toEqual([]);
    expect(calls).toEqual([]);
  });

  it('while slapd runs: nothing when the directory holds what is wanted; else one ldapmodify of the difference', async () => {
    await render(state());
    await syncDirectory(state(), files(), fakeRun, false);
    calls = [];
    expect(await syncDirectory(state(), files(), fakeRun, true)).toEqual([]);
    expect(calls).toEqual([]);

    await render(state({ users: [{ name: 'bob', suspended: true, expires_on: null }] }));
    calls = [];
    const actions = await syncDirectory(state(), files(), fakeRun, true);
    expect(actions).toEqual(['applied 1 change to the LDAP directory']);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.argv).toEqual([
      'ldapmodify',
      '-Q',
      '-Y',
      'EXTERNAL',
      '-H',
      `ldapi://${encodeURIComponent(files().ldapiSocket)}`,
    ]);
    expect(calls[0]!.input).toBe(
      `dn: uid=bob,${NAMES.people}\nchangetype: modify\nreplace: shadowExpire\nshadowExpire: 1\n-\nreplace: userPassword\n-\n`,
    );
    const status = JSON.parse(await readFile(files().status, 'utf8')) as Record<string, unknown>;
    expect(status).toMatchObject({ locked_users: ['bob'] });
  });

  it('a failed ldapmodify leaves what slapd holds unknown: the next sync reads it back first', async () => {
    await render(state());
    await syncDirectory(state(), files(), fakeRun, false);
    await render(state({ anonymous_read: true }));
    answers.ldapmodify = { ok: false, exitCode: 68, stderr: 'Already exists (68)' };
    await expect(syncDirectory(state(), files(), fakeRun, true)).rejects.toThrow(/Already exists/);
    await expect(readFile(files().applied, 'utf8')).rejects.toThrow(/ENOENT/);

    // slapd holds the base and one user only (the rest never got there).
    answers = {
      ldapsearch: {
        stdout: renderLdif([
          {
            dn: NAMES.base,
            attributes: [
              ['objectClass', ['top', 'dcObject', 'organization']],
              ['dc', [ID]],
              ['o', [ID]],
            ],
          },
        ]),
      },
    };
    calls = [];
    const actions = await syncDirectory(state(), files(), fakeRun, true);
    expect(calls.map((call) => call.argv[0])).toEqual(['ldapsearch', 'ldapmodify']);
    expect(actions).toEqual(['applied 7 changes to the LDAP directory']);
    expect(calls[1]!.input).toContain(`dn: cn=anonymous-read,${NAMES.base}\nchangetype: add\n`);
    expect(calls[1]!.input).not.toContain(`dn: ${NAMES.base}\n`);
    expect(await readFile(files().applied, 'utf8')).toBe(await readFile(files().wanted, 'utf8'));
  });

  it('an empty slapd (no base yet) gets everything added', async () => {
    await render(state());
    answers.ldapsearch = { ok: false, exitCode: 32, stderr: 'No such object (32)' };
    const actions = await syncDirectory(state(), files(), fakeRun, true);
    expect(actions).toEqual(['applied 7 changes to the LDAP directory']);
  });
});
