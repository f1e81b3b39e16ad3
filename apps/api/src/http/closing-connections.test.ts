import { connect, type Socket } from 'node:net';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { closeConnectionsWhenClosing } from './closing-connections.ts';

const GRACE_MS = 100;

async function listening() {
  const app = Fastify();
  closeConnectionsWhenClosing(app, GRACE_MS);
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  app.get('/slow', async () => {
    await released;
    return { ok: true };
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as { port: number };
  return { app, port, release };
}

const connected = (port: number) =>
  new Promise<Socket>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });

describe('closing the server with connections open', () => {
  it('does not wait for a connection that never sent a request', async () => {
    const { app, port } = await listening();
    const silent = await connected(port);
    const closedAt = new Promise<number>((resolve) => silent.once('close', () => resolve(Date.now())));
    const started = Date.now();
    await app.close();
    // Without the drop, close() waited until this client hung up (the test would time out).
    expect(Date.now() - started).toBeLessThan(5000);
    expect(await closedAt).toBeGreaterThanOrEqual(started);
  });

  it('lets a request under way finish, then closes its kept-alive connection', async () => {
    const { app, port, release } = await listening();
    const answer = fetch(`http://127.0.0.1:${port}/slow`).then(async (response) => {
      expect(response.headers.get('connection')).toBe('close');
      return response.json();
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const closing = app.close();
    // Past the grace, the request is still held: it was under way, so its connection stays.
    await new Promise((resolve) => setTimeout(resolve, GRACE_MS * 3));
    release();
    expect(await answer).toEqual({ ok: true });
    // Its connection would stay open as long as fetch keeps it alive (seconds): it is closed now.
    const started = Date.now();
    await closing;
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
