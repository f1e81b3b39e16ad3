// One file a node streams (a backup's or a snapshot's), answered as an attachment: piped to the
// caller as it comes, never kept here, and the node's upload cut when the caller goes away.
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import type { NodeCallStream } from '../modules/nodes/node-calls.ts';
import { attachmentDisposition } from './attachment.ts';

/** The 200 of such a route in the OpenAPI document. */
export const nodeFileResponseSchema = z
  .custom<unknown>()
  .meta({ type: 'string', format: 'binary', description: 'the file' });

/** Sends `file`; named as the node named it, else by the last name of `path`. */
export function sendNodeFile(reply: FastifyReply, file: NodeCallStream, path: string) {
  const name = file.name || path.split('/').pop() || 'download';
  reply
    .type('application/octet-stream')
    .header('content-disposition', attachmentDisposition(name))
    .header('cache-control', 'private, no-store')
    .header('x-content-type-options', 'nosniff');
  if (file.size !== null) reply.header('content-length', String(file.size));
  reply.raw.once('close', () => {
    if (!file.body.readableEnded) file.body.destroy();
  });
  return reply.send(file.body);
}
