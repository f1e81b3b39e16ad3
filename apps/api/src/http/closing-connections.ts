// Closing the server without waiting for good on connections nobody will use again. Node's
// server.close() closes the kept-alive connections idle at that moment, and no others: one that
// finishes its request afterwards stays open as long as its client keeps it, and one that has not
// sent its first request counts as waiting for its headers while close() stops the timer that
// would time it out. Either kept app.close() waiting until its client went away (the embedded
// agent stopping in the same process left such a connection behind). So, once closing, every
// response says `Connection: close`, and a connection that has sent no request gets a short grace
// to send one (answered the same way) before it is destroyed. A request under way always finishes.
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

export const UNUSED_CONNECTION_GRACE_MS = 1000;

export function closeConnectionsWhenClosing(
  app: FastifyInstance,
  graceMs = UNUSED_CONNECTION_GRACE_MS,
): void {
  const unused = new Set<Socket>();
  let closing = false;
  const dropAfterGrace = (socket: Socket) =>
    setTimeout(() => {
      if (unused.has(socket)) socket.destroy();
    }, graceMs).unref();
  app.server.on('connection', (socket: Socket) => {
    unused.add(socket);
    socket.once('close', () => unused.delete(socket));
    if (closing) dropAfterGrace(socket);
  });
  app.server.on('request', (request: { socket: Socket }) => unused.delete(request.socket));
  // Callback hooks, here and on the other per-request hooks: an async one costs a promise and a
  // microtask turn on every request.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) void reply.header('connection', 'close');
    done(null, payload);
  });
  app.addHook('preClose', async () => {
    closing = true;
    for (const socket of unused) dropAfterGrace(socket);
  });
}
