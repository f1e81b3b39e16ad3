// nfs-ganesha's admin and statistics interfaces over D-Bus (its only way to say per-export
// counters or to drop one client). Each workspace's ganesha gets a bus of its own: a dbus-daemon
// started in the same namespace just before it, by the same command (ganeshaBusSetup), in its
// process group, so it is stopped with ganesha and never outlives it; its socket is in the
// workspace's short runtime folder, where the agent (on the host) reaches it by path. Only root
// may connect, own or send: ganesha and the agent run as root, nothing else in the namespace does.
//
// Used by the report (exportIoStats, cached: nfs/observe.ts). Not used: clientmgr RemoveClient,
// which only forgets ganesha's per-address statistics record (a client holding state answers
// "busy") and cuts no one off.
import { withDbus, type DbusValue } from '../net/dbus.ts';

export const GANESHA_BUS_PROGRAM = 'dbus-daemon';

/** The bus's config: its socket, EXTERNAL auth, root only. */
export function renderBusConfig(socketPath: string): string {
  const escaped = socketPath.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <listen>unix:path=${escaped}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <deny user="*"/>
    <allow user="root"/>
    <allow own="*"/>
    <allow send_destination="*"/>
    <allow receive_sender="*"/>
  </policy>
</busconfig>
`;
}

/**
 * The command run in the namespace before ganesha (definition `setup`): starts the bus in the
 * background (same process group: stopping ganesha's group stops it), waits up to 5 s for its
 * socket, then execs ganesha with the bus as its system bus. A ganesha killed alone (a crash)
 * leaves its bus behind, out of the next one's process group: the bus's pid is kept beside its
 * socket, and a bus still running with this config is stopped first (checked by its command
 * line: a pid the kernel has given to another program is left alone). Paths are arguments,
 * never shell text.
 */
export function ganeshaBusSetup(configFile: string, socketPath: string): string[] {
  return [
    '/bin/sh',
    '-c',
    `config=$1 socket=$2
shift 2
if old=$(cat "$socket.pid" 2>/dev/null) && [ -r "/proc/$old/cmdline" ]; then
  case $(tr '\\0' ' ' < "/proc/$old/cmdline") in
    *"--config-file=$config "*)
      kill "$old" 2>/dev/null || true
      # It removes its socket as it exits: wait, or it would remove the new bus's.
      tries=0
      while [ -e "/proc/$old" ] && [ "$tries" -lt 40 ]; do tries=$((tries + 1)); sleep 0.05; done ;;
  esac
fi
rm -f "$socket"
dbus-daemon --nofork --nopidfile --config-file="$config" </dev/null &
echo $! > "$socket.pid"
tries=0
until [ -S "$socket" ]; do
  tries=$((tries + 1))
  if [ "$tries" -gt 100 ]; then echo "dbus-daemon did not start" >&2; kill $! 2>/dev/null; exit 1; fi
  sleep 0.05
done
DBUS_SYSTEM_BUS_ADDRESS="unix:path=$socket"
export DBUS_SYSTEM_BUS_ADDRESS
exec "$@"`,
    'debesis-ganesha-bus',
    configFile,
    socketPath,
  ];
}

const GANESHA = 'org.ganesha.nfsd';
const EXPORT_MGR = '/org/ganesha/nfsd/ExportMgr';
const CLIENT_MGR = '/org/ganesha/nfsd/ClientMgr';

export interface ExportIo {
  reads: number;
  read_bytes: number;
  writes: number;
  write_bytes: number;
}

/** The counters of one `(requested, transferred, total, errors, latency, 0)` struct. */
function ioOf(value: DbusValue | undefined): { ops: number; bytes: number } {
  const [, transferred, total] = Array.isArray(value) ? value : [];
  return { ops: Number(total ?? 0), bytes: Number(transferred ?? 0) };
}

/**
 * A `GetNFSv4xIO` reply: status, message, timestamp, read struct, write struct. No activity of
 * that minor version is status false: zeros.
 */
export function parseIoReply(reply: DbusValue[]): ExportIo {
  if (reply[0] !== true) return { reads: 0, read_bytes: 0, writes: 0, write_bytes: 0 };
  const read = ioOf(reply[3]);
  const write = ioOf(reply[4]);
  return { reads: read.ops, read_bytes: read.bytes, writes: write.ops, write_bytes: write.bytes };
}

/** A `ShowExports` reply: timestamp, then (id, path, protocols, timestamp) per export. */
export function parseExportsReply(reply: DbusValue[]): Array<{ id: number; path: string }> {
  const list = Array.isArray(reply[1]) ? reply[1] : [];
  return list.flatMap((entry) =>
    Array.isArray(entry) && typeof entry[0] === 'number' && typeof entry[1] === 'string'
      ? [{ id: entry[0], path: entry[1] }]
      : [],
  );
}

/**
 * A `ShowClients` reply: timestamp, then (address, protocols, timestamp) per client. Ganesha
 * listens on IPv6 and names IPv4 clients `::ffff:a.b.c.d`: the IPv4 address is what is reported.
 */
export function parseClientsReply(reply: DbusValue[]): string[] {
  const list = Array.isArray(reply[1]) ? reply[1] : [];
  return list.flatMap((entry) =>
    Array.isArray(entry) && typeof entry[0] === 'string' ? [entry[0].replace(/^::ffff:/, '')] : [],
  );
}

const MINOR_VERSIONS = ['GetNFSv40IO', 'GetNFSv41IO', 'GetNFSv42IO'] as const;

/**
 * Reads and writes (operations and bytes) per export since ganesha started, all NFSv4 minor
 * versions summed, by the export's path as ganesha sees it; the NFSv4 root (id 0) left out.
 */
export async function exportIoStats(socketPath: string): Promise<Map<string, ExportIo>> {
  return withDbus(socketPath, async (bus) => {
    const exports = parseExportsReply(
      await bus.call({
        destination: GANESHA,
        path: EXPORT_MGR,
        interface: `${GANESHA}.exportmgr`,
        member: 'ShowExports',
      }),
    );
    const stats = new Map<string, ExportIo>();
    for (const { id, path } of exports) {
      if (id === 0) continue;
      const total: ExportIo = { reads: 0, read_bytes: 0, writes: 0, write_bytes: 0 };
      for (const member of MINOR_VERSIONS) {
        const io = parseIoReply(
          await bus.call({
            destination: GANESHA,
            path: EXPORT_MGR,
            interface: `${GANESHA}.exportstats`,
            member,
            signature: 'q',
            args: [id],
          }),
        );
        total.reads += io.reads;
        total.read_bytes += io.read_bytes;
        total.writes += io.writes;
        total.write_bytes += io.write_bytes;
      }
      stats.set(path, total);
    }
    return stats;
  });
}

/** The addresses of the clients ganesha holds state for. */
export async function ganeshaClients(socketPath: string): Promise<string[]> {
  return withDbus(socketPath, async (bus) =>
    parseClientsReply(
      await bus.call({
        destination: GANESHA,
        path: CLIENT_MGR,
        interface: `${GANESHA}.clientmgr`,
        member: 'ShowClients',
      }),
    ),
  );
}
