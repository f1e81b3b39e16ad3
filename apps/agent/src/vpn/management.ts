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
import { createKeyedQueue } from '../system/keyed-queue.ts';

export interface ManagementOptions {
  /** Deadline of the whole conversation, waiting for a busy interface included. Default 5 s. */
  timeoutMs?: number;
  /** Ending sessions: how long a halted one may take to end (default HALT_GRACE_MS). */
  haltGraceMs?: number;
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

/** Runs `work` after every earlier call on the same socket has finished. */
const queued = createKeyedQueue();

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
  const sessions: VpnSessionReport[] = [];
  for (const column of clientListRows(lines)) {
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

/** Each CLIENT_LIST row of a `status 3` answer, its columns by name (the HEADER line names them). */
function clientListRows(lines: readonly string[]): Array<(column: string) => string | undefined> {
  let header = DEFAULT_HEADER;
  const rows: Array<(column: string) => string | undefined> = [];
  for (const line of lines) {
    const fields = line.split('\t');
    if (fields[0] === 'HEADER' && fields[1] === 'CLIENT_LIST') {
      header = fields.slice(2);
      continue;
    }
    if (fields[0] !== 'CLIENT_LIST') continue;
    const names = header;
    const row = fields.slice(1);
    rows.push((name) => {
      const index = names.indexOf(name);
      return index < 0 ? undefined : row[index];
    });
  }
  return rows;
}

/** The server's `status 3` answer; undefined when no server listens on the socket. */
async function status3(socketPath: string, options?: ManagementOptions): Promise<string[] | undefined> {
  const answer = await managementCommand(socketPath, 'status 3', options);
  if (!answer) return undefined;
  const last = answer.at(-1) ?? '';
  if (last !== 'END') throw new ManagementError('refused', `OpenVPN refused \`status 3\`: ${last}`);
  return answer;
}

/** The server's sessions now; none when no server listens on the socket. */
export async function sessions(socketPath: string, options?: ManagementOptions): Promise<VpnSessionReport[]> {
  const answer = await status3(socketPath, options);
  return answer ? parseStatus3(answer) : [];
}

/** A session's client id (the `Client ID` column of `status 3`) and whose it is. */
export interface ClientRow {
  user: string;
  clientId: string;
}

/** The `Client ID` of each CLIENT_LIST row (OpenVPN 2.4 and later list it), handshakes left out. */
export function parseClientIds(lines: readonly string[]): ClientRow[] {
  const rows: ClientRow[] = [];
  for (const column of clientListRows(lines)) {
    const user = column(COLUMNS.user);
    const clientId = column('Client ID');
    if (user && user !== 'UNDEF' && clientId && /^\d+$/.test(clientId)) rows.push({ user, clientId });
  }
  return rows;
}

/**
 * How long a halted session may take to end before it is dropped by name: a client that says
 * goodbye ends it at once; otherwise OpenVPN 2.6 ends it itself 5 s after the HALT (its delayed
 * exit), time the message needs to reach the client. Dropping it sooner could lose the HALT.
 */
const HALT_GRACE_MS = 6000;

async function listClients(
  socketPath: string,
  options?: ManagementOptions,
): Promise<ClientRow[] | undefined> {
  const answer = await status3(socketPath, options);
  return answer && parseClientIds(answer);
}

/**
 * Ends the sessions of the users `which` picks, and says how many. Each is first told to stop,
 * by its client id with `HALT`: `kill <cn>` alone drops the server's side only, and over UDP the
 * client hears nothing, keeps its tunnel until its ping times out a minute later and then
 * reconnects by itself, so an enabled user would be back as if nothing happened. A client that
 * halts says goodbye (explicit-exit-notify, in the configs the agent issues) and its session ends
 * at once; one that has not within HALT_GRACE_MS is dropped by name. A
 * session gone between the listing and its kill is not counted.
 */
async function endSessions(
  socketPath: string,
  which: (user: string) => boolean,
  options?: ManagementOptions,
): Promise<number> {
  const chosen = (await listClients(socketPath, options))?.filter((row) => which(row.user)) ?? [];
  const halted: ClientRow[] = [];
  for (const row of chosen) {
    const answer = await managementCommand(socketPath, `client-kill ${row.clientId} HALT`, options);
    const said = answer?.at(-1) ?? '';
    if (said.startsWith('SUCCESS:')) halted.push(row);
    else if (answer && !said.startsWith('ERROR: client-kill command failed'))
      throw new ManagementError('refused', `OpenVPN refused \`client-kill ${row.clientId}\`: ${said}`);
  }
  const deadline = Date.now() + (options?.haltGraceMs ?? HALT_GRACE_MS);
  let left = halted;
  while (left.length > 0) {
    const now = new Set((await listClients(socketPath, options))?.map((row) => row.clientId) ?? []);
    left = left.filter((row) => now.has(row.clientId));
    if (left.length === 0 || Date.now() > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  // Only names a VPN user can have go into a command the server splits on blanks and quotes.
  for (const user of new Set(left.map((row) => row.user)))
    if (WORKSPACE_NAME_PATTERN.test(user)) await managementCommand(socketPath, `kill ${user}`, options);
  return halted.length;
}

/** Ends every session of `user` (its certificate's common name); resolves with how many ended. */
export async function disconnectUser(
  socketPath: string,
  user: string,
  options?: ManagementOptions,
): Promise<number> {
  if (!WORKSPACE_NAME_PATTERN.test(user))
    throw new ManagementError('protocol', `not a VPN user name: ${user}`);
  return endSessions(socketPath, (name) => name === user, options);
}

/** Ends every session of the server; resolves with how many ended. */
export function killAll(socketPath: string, options?: ManagementOptions): Promise<number> {
  return endSessions(socketPath, () => true, options);
}
