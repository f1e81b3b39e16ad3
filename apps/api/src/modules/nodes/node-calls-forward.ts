// An agent's answer to a node call that landed on another API process than the one whose caller
// waits for it (node-calls-relay.ts): passed on to that process as the agent sent it, with the
// node's own token, so the owner checks it exactly as if the agent had called it directly. The
// bytes of a stream answer flow through without being held. Whatever the owner does not take
// (it is gone, the call is settled) is a 404 to the agent, as for any call nobody awaits.
import { Readable } from 'node:stream';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';

/** Where the node routes are mounted on every API process. */
const NODE_ROUTES = '/api/v1/nodes';

/**
 * The headers of an answer worth passing on: the token, the body's type and length, the file's
 * own, a replica's (its parent).
 */
function passedOn(request: FastifyRequest): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (typeof value !== 'string') continue;
    if (
      ['authorization', 'content-type', 'content-length'].includes(name) ||
      name.startsWith('x-debesis-file-') ||
      name.startsWith('x-debesis-replica')
    )
      headers[name] = value;
  }
  return headers;
}

/** Passes a JSON answer on to its owner; true when the owner took it. */
export async function forwardAnswer(
  owner: string,
  callId: string,
  request: FastifyRequest,
  log: FastifyBaseLogger,
): Promise<boolean> {
  return forward(`${owner}${NODE_ROUTES}/calls/${encodeURIComponent(callId)}/result`, log, {
    method: 'POST',
    headers: { ...passedOn(request), 'content-type': 'application/json' },
    body: JSON.stringify(request.body),
  });
}

/** Passes a stream answer's bytes on to its owner as they come; true when the owner took them all. */
export async function forwardStream(
  owner: string,
  callId: string,
  request: FastifyRequest,
  log: FastifyBaseLogger,
): Promise<boolean> {
  return forward(`${owner}${NODE_ROUTES}/calls/${encodeURIComponent(callId)}/stream`, log, {
    method: 'POST',
    headers: passedOn(request),
    body: Readable.toWeb(request.raw) as ReadableStream<Uint8Array>,
    duplex: 'half',
  });
}

async function forward(url: string, log: FastifyBaseLogger, init: RequestInit): Promise<boolean> {
  try {
    const response = await fetch(url, init);
    await response.arrayBuffer().catch(() => undefined);
    if (!response.ok)
      log.warn({ url, status: response.status }, 'node calls: the owner did not take an answer');
    return response.ok;
  } catch (error) {
    log.warn({ url, err: error }, 'node calls: passing an answer on to its owner failed');
    return false;
  }
}
