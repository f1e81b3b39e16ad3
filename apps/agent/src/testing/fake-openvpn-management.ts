// A stand-in for an OpenVPN 2.6 server's management interface on a UNIX socket, for tests that
// need sessions without a server: it greets as the real one does, answers `status 3` from its
// session list in the real format (tab-separated, HEADER line, END; each session keeps its client
// id) and `client-kill <id> <message>` by ending that session. `answer` overrides a command's reply
// (undefined: never answer).
import { createServer, type Server } from 'node:net';
import type { VpnSessionReport } from '@debesis/contract';

export interface FakeManagement {
  /** The live sessions; a test changes them between readings. */
  sessions: VpnSessionReport[];
  /** Every command received, in order. */
  commands: string[];
  /** The client id `status 3` gives a session (the same one for as long as it lasts). */
  clientId(session: VpnSessionReport): number;
  close(): Promise<void>;
}

const HEADER = [
  'Common Name',
  'Real Address',
  'Virtual Address',
  'Virtual IPv6 Address',
  'Bytes Received',
  'Bytes Sent',
  'Connected Since',
  'Connected Since (time_t)',
  'Username',
  'Client ID',
  'Peer ID',
  'Data Channel Cipher',
];

/** `status 3` as OpenVPN 2.6.14 prints it (captured from a real server). */
export function renderStatus3(
  sessions: readonly VpnSessionReport[],
  now = new Date(),
  clientId: (session: VpnSessionReport, index: number) => number = (_session, index) => index,
): string {
  const stamp = (date: Date) => date.toISOString().slice(0, 19).replace('T', ' ');
  const epoch = (date: Date) => String(Math.floor(date.getTime() / 1000));
  const rows = [
    'TITLE\tOpenVPN 2.6.14 x86_64-pc-linux-gnu [SSL (OpenSSL)] [LZO] [LZ4] [EPOLL] [PKCS11] [MH/PKTINFO] [AEAD] [DCO]',
    `TIME\t${stamp(now)}\t${epoch(now)}`,
    ['HEADER', 'CLIENT_LIST', ...HEADER].join('\t'),
    ...sessions.map((s, index) => {
      const id = clientId(s, index);
      const since = new Date(s.connected_since);
      return [
        'CLIENT_LIST',
        s.user,
        s.real_address,
        s.virtual_address,
        '',
        s.bytes_received,
        s.bytes_sent,
        stamp(since),
        epoch(since),
        s.user,
        id,
        id,
        'AES-256-GCM',
      ].join('\t');
    }),
    'HEADER\tROUTING_TABLE\tVirtual Address\tCommon Name\tReal Address\tLast Ref\tLast Ref (time_t)',
    'GLOBAL_STATS\tMax bcast/mcast queue length\t1',
    'GLOBAL_STATS\tdco_enabled\t0',
    'END',
  ];
  return rows.map((row) => `${row}\r\n`).join('');
}

export async function startFakeManagement(
  socketPath: string,
  options: { sessions?: VpnSessionReport[]; answer?: (command: string) => string | undefined } = {},
): Promise<FakeManagement> {
  const ids = new Map<VpnSessionReport, number>();
  const fake: FakeManagement = {
    sessions: options.sessions ?? [],
    commands: [],
    clientId(session) {
      if (!ids.has(session)) ids.set(session, ids.size);
      return ids.get(session)!;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const reply = (command: string): string | undefined => {
    if (options.answer) return options.answer(command);
    if (command === 'status 3') return renderStatus3(fake.sessions, new Date(), (s) => fake.clientId(s));
    const kill = /^client-kill (\d+)(?: (\S+))?$/.exec(command);
    if (kill) {
      const ended = fake.sessions.filter((s) => fake.clientId(s) === Number(kill[1]));
      if (ended.length === 0) return 'ERROR: client-kill command failed\r\n';
      fake.sessions = fake.sessions.filter((s) => !ended.includes(s));
      return 'SUCCESS: client-kill command succeeded\r\n';
    }
    return "ERROR: unknown command, enter 'help' for more options\r\n";
  };
  const server: Server = createServer((socket) => {
    socket.setEncoding('utf8');
    socket.on('error', () => undefined);
    socket.write(">INFO:OpenVPN Management Interface Version 5 -- type 'help' for more info\r\n");
    let pending = '';
    socket.on('data', (chunk: string) => {
      pending += chunk;
      let newline: number;
      while ((newline = pending.indexOf('\n')) >= 0) {
        const command = pending.slice(0, newline).replace(/\r$/, '');
        pending = pending.slice(newline + 1);
        fake.commands.push(command);
        const text = reply(command);
        if (text !== undefined) socket.write(text);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  return fake;
}
