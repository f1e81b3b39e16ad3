// A backup target off the node for live tests: `rclone serve restic` with a login, run inside a
// test client's network namespace (testing/network.ts), so the node reaches it only over that
// client's veth, as it would a separate host.
import { spawn, type ChildProcess } from 'node:child_process';
import { runCommand } from '../exec/run-command.ts';
import type { TestClient } from './network.ts';

export interface TestBackupTarget {
  process: ChildProcess;
  /** The restic repository base of it (`rest:http://user:pass@address:port/`). */
  url: string;
}

/** Starts the REST server on the client's address, keeping repositories in `store`; resolves once it answers. */
export async function serveResticTarget(
  client: TestClient,
  options: { port: number; login: { user: string; pass: string }; store: string },
): Promise<TestBackupTarget> {
  const { port, login, store } = options;
  const child = spawn(
    'ip',
    [
      ...['netns', 'exec', client.netns, 'rclone', 'serve', 'restic'],
      ...['--addr', `${client.address}:${port}`, '--user', login.user, '--pass', login.pass],
      ...['--config', '/dev/null', store],
    ],
    { stdio: 'ignore' },
  );
  await answering(`http://${client.address}:${port}/`);
  return { process: child, url: `rest:http://${login.user}:${login.pass}@${client.address}:${port}/` };
}

/** Waits until the server answers (an unauthenticated request is refused: it is up). */
async function answering(url: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const probe = await runCommand('curl', [
      '-s',
      '-o',
      '/dev/null',
      '-w',
      '%{http_code}',
      '--max-time',
      '1',
      url,
    ]);
    const code = probe.stdout.trim();
    if (/^[1-5]\d\d$/.test(code)) return;
    if (Date.now() > deadline) throw new Error('the backup target did not start');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
