// A client of OpenVPN's management interface, on the UNIX socket in the workspace's VPN folder
// (the agent runs in the host's network namespace, the server in the workspace's: a path reaches
// across, a TCP port inside the namespace would not). One conversation per call: connect, read the
// `>INFO` banner, send one command, read its answer (up to `END` for a listing, or one `SUCCESS:`
// / `ERROR:` line), close. Real-time notifications (`>…` lines) are skipped.
//
// The server talks to one management client at a time and keeps a second one waiting, unanswered,
// until the first leaves; so calls for one socket are queued here, and every call has a deadline
// (a hung server fails the call, it never hangs a reconcile pass). A server that is not there
// (no socket, or a socket nobody listens on after a crash) has no sessions: `sessions` answers
// none and the kills end none, which is what the callers report.
import { createConnection } from 'node:net';
import { WORKSPACE_NAME_PATTERN, type VpnSessionReport } from '@debesis/contract';

export interface ManagementOptions {
  /** Deadline of the whole conversation, waiting for a busy interface included. Default 5 s. */
  timeoutMs?: number;
}

export class ManagementError extends Error {
  constructor(
    readonly code: 'timeout' | 'refused' | 'protocol' | 'io',
    message: string,
  ) {
    super(message);
    this.name = 'ManagementError';
  }
}

const DEFAULT_TIMEOUT_MS = 5000;
/** An answer longer than this is not one the server gives (10 000 sessions are ~2 MB). */
const MAX_ANSWER_BYTES = 8 * 1024 * 1024;

/** Errors that mean no server listens there: nothing to read, nothing to end. */
const DOWN_CODES = new Set(['ENOENT', 'ECONNREFUSED', 'ENOTSOCK']);

const queues = new Map<string, Promise<unknown>>();

/** Runs `work` after every earlier call on the same socket has finished. */
function queued<T>(socketPath: string, work: () => Promise<T>): Promise<T> {
  const previous = queues.get(socketPath) ?? Promise.resolve();
  const next = previous.then(work, work);
  const settled = next.catch(() => undefined);
  queues.set(socketPath, settled);
  void settled.then(() => {
    if (queues.get(socketPath) === settled) queues.delete(socketPath);
  });
  return next;
}

/**
 * Sends one command and resolves with its answer lines (the closing `END`, `SUCCESS:` or `ERROR:`
 * line included), or undefined when no server listens on the socket.
 */
export function managementCommand(
  socketPath: string,
  command: string,
  options: ManagementOptions = {},
): Promise<string[] | undefined> {
  if (/[\r\n]/.test(command)) return Promise.reject(new ManagementError('protocol', 'a command is one line'));
  return queued(socketPath, () => converse(socketPath, command, options.timeoutMs ?? DEFAULT_TIMEOUT_MS));
}

function converse(socketPath: string, command: string, timeoutMs: number): Promise<string[] | undefined> {
  return new Promise((resolve, reject) => {
    const socket = createConnection({ path: socketPath });
    let pending = '';
    let received = 0;
    let greeted = false;
    let settled = false;
    const answer: string[] = [];

    const finish = (outcome: { lines?: string[]; error?: Error }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      if (outcome.error) reject(outcome.error);
      else resolve(outcome.lines);
    };
    const timer = setTimeout(
      () =>
        finish({
          error: new ManagementError(
            'timeout',
            `OpenVPN management at ${socketPath} did not answer \`${command}\` within ${timeoutMs} ms`,
          ),
        }),
      timeoutMs,
    );

    socket.setEncoding('utf8');
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (!greeted && error.code && DOWN_CODES.has(error.code)) finish({});
      else
        finish({ error: new ManagementError('io', `OpenVPN management at ${socketPath}: ${error.message}`) });
    });
    socket.on('close', () =>
      finish({
        error: new ManagementError(
          'protocol',
          `OpenVPN management at ${socketPath} closed before answering \`${command}\``,
        ),
      }),
    );
    socket.on('data', (chunk: string) => {
      received += chunk.length;
      if (received > MAX_ANSWER_BYTES) {
        finish({
          error: new ManagementError('protocol', `OpenVPN management answer over ${MAX_ANSWER_BYTES} bytes`),
        });
        return;
      }
      pending += chunk;
      let newline: number;
      while ((newline = pending.indexOf('\n')) >= 0) {
        const line = pending.slice(0, newline).replace(/\r$/, '');
        pending = pending.slice(newline + 1);
        if (!greeted) {
          if (!line.startsWith('>INFO:')) continue;
          greeted = true;
          socket.write(`${command}\n`);
          continue;
        }
        if (line.startsWith('>')) continue;
        answer.push(line);
        if (line === 'END' || line.startsWith('SUCCESS:') || line.startsWith('ERROR:')) {
          // Closing is the goodbye: the server frees the interface for the next client at once.
          finish({ lines: answer });
          return;
        }
      }
    });
  });
}

const COLUMNS = {
  user: 'Common Name',
  real_address: 'Real Address',
  virtual_address: 'Virtual Address',
  bytes_received: 'Bytes Received',
  bytes_sent: 'Bytes Sent',
  connected_since: 'Connected Since (time_t)',
} as const;
/** OpenVPN 2.4–2.6 order, for a listing without its HEADER line. */
const DEFAULT_HEADER = [
  'Common Name',
  'Real Address',
  'Virtual Address',
  'Virtual IPv6 Address',
  'Bytes Received',
  'Bytes Sent',
  'Connected Since',
  'Connected Since (time_t)',
];

/**
 * The CLIENT_LIST rows of a `status 3` answer (tab-separated; the HEADER line names the columns).
 * A client still in its handshake (common name `UNDEF`) is nobody yet and is left out: its bytes
 * are counted once it is someone, since its session is then new to the counter.
 */
export function parseStatus3(lines: readonly string[]): VpnSessionReport[] {
  let header = DEFAULT_HEADER;
  const sessions: VpnSessionReport[] = [];
  for (const line of lines) {
    const fields = line.split('\t');
    if (fields[0] === 'HEADER' && fields[1] === 'CLIENT_LIST') {
      header = fields.slice(2);
      continue;
    }
    if (fields[0] !== 'CLIENT_LIST') continue;
    const row = fields.slice(1);
    const column = (name: string) => {
      const index = header.indexOf(name);
      return index < 0 ? undefined : row[index];
    };
    const user = column(COLUMNS.user);
    if (!user || user === 'UNDEF') continue;
    const since = Number(column(COLUMNS.connected_since));
    sessions.push({
      user: user.slice(0, 64),
      real_address: (column(COLUMNS.real_address) ?? '').slice(0, 80),
      virtual_address: (column(COLUMNS.virtual_address) ?? '').slice(0, 80),
      bytes_received: count(column(COLUMNS.bytes_received)),
      bytes_sent: count(column(COLUMNS.bytes_sent)),
      connected_since: new Date(Number.isFinite(since) ? since * 1000 : 0).toISOString(),
    });
  }
  return sessions;
}

function count(text: string | undefined): number {
  const value = Number(text);
  return Number.isSafeInteger(value) && value >= 0 ? value : 0;
}

/** The server's sessions now; none when no server listens on the socket. */
export async function sessions(socketPath: string, options?: ManagementOptions): Promise<VpnSessionReport[]> {
  const answer = await managementCommand(socketPath, 'status 3', options);
  if (!answer) return [];
  const last = answer.at(-1) ?? '';
  if (last !== 'END') throw new ManagementError('refused', `OpenVPN refused \`status 3\`: ${last}`);
  return parseStatus3(answer);
}

/** Ends every session of `user` (its certificate's common name); resolves with how many ended. */
export async function disconnectUser(
  socketPath: string,
  user: string,
  options?: ManagementOptions,
): Promise<number> {
  // The name goes into a command line the server splits on blanks and quotes: only names that
  // cannot carry either are sent (every VPN user's name is one).
  if (!WORKSPACE_NAME_PATTERN.test(user))
    throw new ManagementError('protocol', `not a VPN user name: ${user}`);
  const answer = await managementCommand(socketPath, `kill ${user}`, options);
  if (!answer) return 0;
  const last = answer.at(-1) ?? '';
  // "SUCCESS: common name 'alice' found, 2 client(s) killed"
  const killed = /^SUCCESS:.*?(\d+) client\(s\) killed/.exec(last);
  if (killed) return Number(killed[1]);
  if (/^ERROR: common name '.*' not found/.test(last)) return 0;
  throw new ManagementError('refused', `OpenVPN refused \`kill ${user}\`: ${last}`);
}

/** Ends every session of the server; resolves with how many ended. */
export async function killAll(socketPath: string, options?: ManagementOptions): Promise<number> {
  // The interface has no "kill all": each user's sessions end by name, which also ends a second
  // session of a user that connected while this ran.
  const users = new Set((await sessions(socketPath, options)).map((session) => session.user));
  let ended = 0;
  for (const user of users)
    if (WORKSPACE_NAME_PATTERN.test(user)) ended += await disconnectUser(socketPath, user, options);
  return ended;
}
