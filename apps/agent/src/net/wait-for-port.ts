// Waits until a daemon accepts connections, instead of sleeping a guessed time (DAEMONS.md: a
// socket appears about a second after start). Gives up early when the daemon has already died.
import { connect } from 'node:net';

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
