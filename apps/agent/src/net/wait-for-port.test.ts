// A daemon is seen up by its socket table whichever family its socket is: ganesha binds an IPv4
// address on an IPv6 socket (::ffff:a.b.c.d), which only /proc/<pid>/net/tcp6 shows.
import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { socketBound } from './wait-for-port.ts';

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

async function listen(host: string): Promise<number> {
  server = createServer();
  await new Promise<void>((resolve) => server!.listen(0, host, resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

describe('socketBound', () => {
  it('sees a TCP listener on an IPv4 socket', async () => {
    const port = await listen('127.0.0.1');
    expect(await socketBound(process.pid, '127.0.0.1', port, 'tcp')).toBe(true);
    expect(await socketBound(process.pid, '127.0.0.2', port, 'tcp')).toBe(false);
  });

  it('sees an IPv4 address bound on an IPv6 socket', async () => {
    const port = await listen('::ffff:127.0.0.1');
    expect(await socketBound(process.pid, '127.0.0.1', port, 'tcp')).toBe(true);
    expect(await socketBound(process.pid, '127.0.0.2', port, 'tcp')).toBe(false);
  });
});
