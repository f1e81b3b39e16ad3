// The VPN's PKI of one workspace: a CA, the server's certificate, and one client certificate per
// (VPN user, cert_generation), kept by easy-rsa (Debian's easy-rsa 3.1) in
// <ws>/vpn-pki, outside every daemon's namespace. EC keys (prime256v1), so a new workspace's PKI
// takes about a second and no DH parameters. Why easy-rsa: it keeps the CA's books (serials,
// index, revocations) the way OpenVPN's own tooling does and the CRL follows from them; a client
// certificate costs ≈0.4 s at a load of 14 on 2 cores (gen-req + sign-req), paid once per user and
// generation when the config is first asked for, then answered from the files.
//
// Client certificates are named `<user>.g<generation>` with the CN `<user>` (the password script
// and the management interface's `kill` know a user by its CN). On every apply, a certificate of
// an older generation or of a user no longer in the desired state is revoked and the CRL
// regenerated; so is a CRL a month before it expires (OpenVPN would refuse everyone with an
// expired one). The server reads copies of what it needs (never the CA key) in its own folder.
//
// easy-rsa edits its index in place, so every step on one PKI runs under one lock: an apply and a
// config asked for at the same moment never interleave.
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { WORKSPACE_NAME_PATTERN, type WorkspaceDesiredState } from '@debesis/contract';
import { VPN_DEFAULT_PORT } from '@debesis/contract';
import { NodeCallError } from '../calls/node-call.ts';
import type { CommandRunner } from '../exec/run-command.ts';
import { ensureDir } from '../fs/ensure-dir.ts';
import { writeIfChanged } from '../fs/write-if-changed.ts';
import { exists } from '../system/host.ts';
import type { WorkspaceLayout } from '../workspace-layout.ts';
import type { VpnLayout } from './vpn-layout.ts';
import { renderClientConf } from './render-client-conf.ts';

/** Debian's easy-rsa (on no PATH). */
export const EASYRSA = '/usr/share/easy-rsa/easyrsa';
/** How long a CRL is valid, and how old it may get before it is made again. */
export const CRL_DAYS = 180;
export const CRL_RENEW_AFTER_MS = (CRL_DAYS - 30) * 24 * 3600 * 1000;

const locks = new Map<string, Promise<unknown>>();

/** Runs `work` once every earlier step on the same PKI has finished. */
async function withPkiLock<T>(pkiDir: string, work: () => Promise<T>): Promise<T> {
  const before = locks.get(pkiDir) ?? Promise.resolve();
  const mine = before.catch(() => undefined).then(work);
  locks.set(pkiDir, mine);
  try {
    return await mine;
  } finally {
    if (locks.get(pkiDir) === mine) locks.delete(pkiDir);
  }
}

export const clientCertName = (user: string, generation: number) => `${user}.g${generation}`;

/** A client certificate's user and generation from its file name, or undefined (the server's). */
export function parseClientCertName(file: string): { user: string; generation: number } | undefined {
  const match = /^(.+)\.g([1-9][0-9]{0,8})\.crt$/.exec(file);
  if (!match || !WORKSPACE_NAME_PATTERN.test(match[1]!)) return undefined;
  return { user: match[1]!, generation: Number(match[2]) };
}

function easyrsa(layout: VpnLayout, run: CommandRunner, args: string[], extra: Record<string, string> = {}) {
  return run(EASYRSA, args, {
    check: true,
    cwd: dirname(layout.pkiDir),
    // Its own environment: the agent's may hold secrets (the embedded mode runs inside the API).
    env: {
      PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
      LANG: 'C.UTF-8',
      EASYRSA_BATCH: '1',
      EASYRSA_PKI: layout.pkiDir,
      EASYRSA_ALGO: 'ec',
      EASYRSA_CURVE: 'prime256v1',
      EASYRSA_DIGEST: 'sha256',
      EASYRSA_CRL_DAYS: String(CRL_DAYS),
      ...extra,
    },
  });
}

const pkiPath = (layout: VpnLayout, ...parts: string[]) => join(layout.pkiDir, ...parts);

/** CA, server certificate, first CRL and tls-crypt key, each made once; what it did. */
async function ensurePki(layout: VpnLayout, run: CommandRunner): Promise<string[]> {
  const actions: string[] = [];
  if (!(await exists(pkiPath(layout, 'ca.crt')))) {
    // No CA: nothing of this PKI was ever handed out (a config needs the CA), so whatever an
    // interrupted first apply left goes.
    await rm(layout.pkiDir, { recursive: true, force: true });
    await easyrsa(layout, run, ['init-pki']);
    await easyrsa(layout, run, ['build-ca', 'nopass'], { EASYRSA_REQ_CN: 'Debesis VPN CA' });
    await ensureDir(layout.pkiDir, { mode: 0o700 });
    actions.push(`made the VPN's CA in ${layout.pkiDir}`);
  }
  if (!(await exists(pkiPath(layout, 'issued', 'server.crt')))) {
    await rm(pkiPath(layout, 'reqs', 'server.req'), { force: true });
    await rm(pkiPath(layout, 'private', 'server.key'), { force: true });
    await easyrsa(layout, run, ['build-server-full', 'server', 'nopass']);
    actions.push("issued the VPN server's certificate");
  }
  if (!(await exists(pkiPath(layout, 'crl.pem')))) await easyrsa(layout, run, ['gen-crl']);
  const tlsCrypt = pkiPath(layout, 'tls-crypt.key');
  if (!(await exists(tlsCrypt))) {
    await run('openvpn', ['--genkey', 'secret', tlsCrypt], { check: true });
    actions.push("made the VPN's tls-crypt key");
  }
  return actions;
}

/** Revokes what the desired state no longer holds, and makes the CRL again when needed. */
async function revokeStale(
  desired: WorkspaceDesiredState,
  layout: VpnLayout,
  run: CommandRunner,
): Promise<string[]> {
  const current = new Map((desired.vpn?.users ?? []).map((user) => [user.name, user.cert_generation]));
  const actions: string[] = [];
  for (const file of (await readdir(pkiPath(layout, 'issued'))).sort()) {
    const cert = parseClientCertName(file);
    if (!cert) continue;
    const wanted = current.get(cert.user);
    // A newer generation than the desired state's may be one a config call just issued: kept.
    if (wanted !== undefined && cert.generation >= wanted) continue;
    const name = clientCertName(cert.user, cert.generation);
    await easyrsa(layout, run, [
      'revoke',
      name,
      wanted === undefined ? 'cessationOfOperation' : 'superseded',
    ]);
    actions.push(`revoked VPN certificate ${name}`);
  }
  const crl = await stat(pkiPath(layout, 'crl.pem')).catch(() => undefined);
  if (actions.length > 0 || !crl || Date.now() - crl.mtimeMs > CRL_RENEW_AFTER_MS) {
    await easyrsa(layout, run, ['gen-crl']);
    actions.push('made the VPN CRL again');
  }
  return actions;
}

/** The server's copies of the PKI's files (CA certificate, its own pair, tls-crypt, CRL). */
async function installServerFiles(layout: VpnLayout): Promise<string[]> {
  const copies: Array<[string[], string, number]> = [
    [['ca.crt'], layout.caCert, 0o644],
    [['issued', 'server.crt'], layout.serverCert, 0o644],
    [['private', 'server.key'], layout.serverKey, 0o600],
    [['tls-crypt.key'], layout.tlsCryptKey, 0o600],
    [['crl.pem'], layout.crl, 0o644],
  ];
  const actions: string[] = [];
  for (const [from, to, mode] of copies)
    if ((await writeIfChanged(to, await readFile(pkiPath(layout, ...from)), { mode })).changed)
      actions.push(`wrote ${to}`);
  return actions;
}

/**
 * The apply's PKI step (live only): the PKI made if missing, stale certificates revoked, the CRL
 * current, the server's copies in place. Runs no program when nothing is due.
 */
export async function syncPki(
  desired: WorkspaceDesiredState,
  layout: VpnLayout,
  run: CommandRunner,
): Promise<string[]> {
  return withPkiLock(layout.pkiDir, async () => [
    ...(await ensurePki(layout, run)),
    ...(await revokeStale(desired, layout, run)),
    ...(await installServerFiles(layout)),
  ]);
}

/** Whether the CRL is due to be made again (a cheap look, for the driver's observe). */
export async function crlDue(layout: VpnLayout): Promise<boolean> {
  const crl = await stat(pkiPath(layout, 'crl.pem')).catch(() => undefined);
  return crl !== undefined && Date.now() - crl.mtimeMs > CRL_RENEW_AFTER_MS;
}

/**
 * The user's inline .ovpn with a certificate of `certGeneration`, issued now if it has none yet
 * (and the PKI made if the workspace has none yet). Refused with `not_found` for a workspace
 * without VPN, a user it does not hold, or a generation older than the user's (revoked).
 */
export async function issueClientConfig(
  desired: WorkspaceDesiredState,
  layout: WorkspaceLayout,
  user: string,
  certGeneration: number,
  run: CommandRunner,
): Promise<string> {
  const vpn = desired.vpn;
  if (!vpn) throw new NodeCallError('not_found', 'the workspace does not use the VPN');
  const entry = vpn.users.find((candidate) => candidate.name === user);
  if (!entry || !WORKSPACE_NAME_PATTERN.test(user))
    throw new NodeCallError(
      'not_found',
      `the workspace has no VPN user ${JSON.stringify(user.slice(0, 64))}`,
    );
  if (!Number.isInteger(certGeneration) || certGeneration < entry.cert_generation)
    throw new NodeCallError('not_found', `certificate ${certGeneration} of ${user} is revoked`);

  const pki = layout.vpn;
  try {
    return await withPkiLock(pki.pkiDir, async () => {
      await ensurePki(pki, run);
      const name = clientCertName(user, certGeneration);
      const cert = pkiPath(pki, 'issued', `${name}.crt`);
      const key = pkiPath(pki, 'private', `${name}.key`);
      if (!(await exists(cert))) {
        // A request or key left by an interrupted issue would make easy-rsa refuse: start over.
        await rm(pkiPath(pki, 'reqs', `${name}.req`), { force: true });
        await rm(key, { force: true });
        await easyrsa(pki, run, ['gen-req', name, 'nopass'], { EASYRSA_REQ_CN: user });
        await easyrsa(pki, run, ['sign-req', 'client', name]);
      }
      return renderClientConf({
        user,
        certGeneration,
        address: desired.address,
        port: vpn.port ?? VPN_DEFAULT_PORT,
        ca: await readFile(pkiPath(pki, 'ca.crt'), 'utf8'),
        cert: await readFile(cert, 'utf8'),
        key: await readFile(key, 'utf8'),
        tlsCrypt: await readFile(pkiPath(pki, 'tls-crypt.key'), 'utf8'),
      });
    });
  } catch (error) {
    if (error instanceof NodeCallError) throw error;
    throw new NodeCallError('failed', `the VPN config could not be made: ${(error as Error).message}`);
  }
}
