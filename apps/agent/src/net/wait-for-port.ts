// Waits until a daemon accepts connections, instead of sleeping a guessed time (a socket
// appears about a second after start). Gives up early when the daemon has already died.
// A UDP daemon (openvpn) accepts no connection to test, and a TCP one on an address only its own
// namespace reaches (the backup clients' REST server, inside the VPN's tunnel) cannot be
// connected to from the node: those are up once their socket is bound (TCP: listening), which
// the kernel lists in /proc/<pid>/net/{udp,tcp}, the tables of the namespace the daemon runs in
// (the agent itself sits in the node's), so no program runs and no packet is sent.
import { readFile } from 'node:fs/promises';
import { connect, isIPv4 } from 'node:net';
import { endianness } from 'node:os';

/** Where a daemon serves: a TCP port (the default) or a UDP port. */
export interface Listens {
  host: string;
  port: number;
  protocol?: 'tcp' | 'udp';
  /**
   * How the agent sees it up: by connecting (TCP's default), or by the daemon's socket table
   * (UDP's only way; for TCP on an address the node cannot reach).
   */
  probe?: 'connect' | 'bound';
}

export async function canConnect(host: string, port: number, timeoutMs = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

export async function waitForPort(
  host: string,
  port: number,
  options: { timeoutMs: number; stillRunning: () => boolean },
): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    if (await canConnect(host, port)) return;
    if (!options.stillRunning()) throw new Error(`the daemon exited before listening on ${host}:${port}`);
    if (Date.now() > deadline)
      throw new Error(`nothing listens on ${host}:${port} after ${options.timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const hex = (n: number, width: number) => n.toString(16).toUpperCase().padStart(width, '0');

/** /proc/net/udp's spelling of 4 address bytes: a host-order word. */
function procWord(bytes: readonly number[]): string {
  const buffer = Buffer.from(bytes);
  return hex(endianness() === 'LE' ? buffer.readUInt32LE(0) : buffer.readUInt32BE(0), 8);
}

/** /proc/net/udp's spelling of an IPv4 address and port. */
function procAddress(host: string, port: number): string {
  return `${procWord(host.split('.').map(Number))}:${hex(port, 4)}`;
}

/**
 * /proc/net/udp6's spellings of an IPv4 address and port on an IPv6 socket (a daemon such as
 * ganesha binds one there, as ::ffff:a.b.c.d): that, and the IPv6 wildcard, which takes IPv4 too.
 */
function procAddresses6(host: string, port: number): string[] {
  const zero = '0'.repeat(8);
  const mapped = `${zero}${zero}${procWord([0, 0, 0xff, 0xff])}${procWord(host.split('.').map(Number))}`;
  return [`${mapped}:${hex(port, 4)}`, `${zero.repeat(4)}:${hex(port, 4)}`];
}

/** /proc/net/tcp's state of a listening socket. */
const TCP_LISTEN = '0A';

/**
 * Whether a socket of process `pid`'s network namespace is bound to `host:port` (IPv4, or any
 * address): for UDP any socket, for TCP a listening one.
 */
export async function socketBound(
  pid: number,
  host: string,
  port: number,
  protocol: 'tcp' | 'udp' = 'udp',
): Promise<boolean> {
  if (!isIPv4(host)) throw new Error(`${host}: only IPv4 ports are watched`);
  const [table, table6] = await Promise.all(
    [protocol, `${protocol}6`].map((name) => readFile(`/proc/${pid}/net/${name}`, 'utf8').catch(() => '')),
  );
  const wanted = new Set([
    procAddress(host, port),
    procAddress('0.0.0.0', port),
    ...procAddresses6(host, port),
  ]);
  return [...table!.split('\n').slice(1), ...table6!.split('\n').slice(1)].some((line) => {
    const fields = line.trim().split(/\s+/);
    return wanted.has(fields[1] ?? '') && (protocol === 'udp' || fields[3] === TCP_LISTEN);
  });
}

/** Waits for `listens` of the daemon `pid`: a TCP connection, or its socket bound. */
export async function waitForListening(
  pid: number,
  listens: Listens,
  options: { timeoutMs: number; stillRunning: () => boolean },
): Promise<void> {
  const protocol = listens.protocol ?? 'tcp';
  const probe = listens.probe ?? (protocol === 'udp' ? 'bound' : 'connect');
  if (probe === 'connect') return waitForPort(listens.host, listens.port, options);
  const where = `${listens.host}:${listens.port}/${protocol}`;
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    if (await socketBound(pid, listens.host, listens.port, protocol)) return;
    if (!options.stillRunning()) throw new Error(`the daemon exited before listening on ${where}`);
    if (Date.now() > deadline) throw new Error(`nothing listens on ${where} after ${options.timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
