// The time an FTP client waits to be signed in: from the server's greeting (220) through USER and
// PASS to "230 logged in", on a socket of its own (issue 16: target under 50 ms). pure-ftpd checks
// the user's SHA-512 crypt from its puredb, so this is mostly that check and two round trips.
import { connect } from 'node:net';

const LOGIN_WITHIN_MS = 10_000;

/** One sign-in of `user` at `address:port`; the ms from the greeting to 230. */
export function ftpLoginMs(address: string, port: number, user: string, password: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, address);
    let step: 'greeting' | 'user' | 'password' | 'done' = 'greeting';
    let started = 0;
    let pending = '';
    const fail = (error: Error) => {
      clearTimeout(timer);
      socket.destroy();
      reject(error);
    };
    const timer = setTimeout(
      () => fail(new Error(`FTP sign-in at ${address}:${port} timed out`)),
      LOGIN_WITHIN_MS,
    );
    socket.setEncoding('utf8');
    socket.on('error', fail);
    socket.on('data', (chunk: string) => {
      const lines = (pending + chunk).split('\r\n');
      pending = lines.pop() ?? '';
      // A reply ends with its code and a space ("220-" lines continue it).
      for (const code of lines.flatMap((line) => /^(\d{3}) /.exec(line)?.[1] ?? [])) {
        if (step === 'greeting' && code === '220') {
          started = performance.now();
          step = 'user';
          socket.write(`USER ${user}\r\n`);
        } else if (step === 'user' && code === '331') {
          step = 'password';
          socket.write(`PASS ${password}\r\n`);
        } else if (step === 'password' && code === '230') {
          step = 'done';
          clearTimeout(timer);
          resolve(performance.now() - started);
          socket.end('QUIT\r\n');
        } else if (step !== 'done') fail(new Error(`FTP answered ${code} while waiting at ${step}`));
      }
    });
  });
}
