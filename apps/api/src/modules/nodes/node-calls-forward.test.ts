// A stream answer that landed on another API process goes on to its owner with the node's token,
// the file's headers and a replica's parent (issue 37), its bytes as they come, with no length
// when the node sent none (a replica's size is not known up front).
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPLICA_PARENT_HEADER } from '@debesis/contract';
import { forwardStream } from './node-calls-forward.ts';

describe('forwardStream', () => {
  const seen: { url?: string; headers?: IncomingHttpHeaders; body?: Buffer } = {};
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      Object.assign(seen, { url: request.url, headers: request.headers, body: Buffer.concat(chunks) });
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  let owner = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    owner = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('passes a replica’s name, parent and bytes on without a length', async () => {
    const bytes = Buffer.alloc(100_000, 3);
    const request = {
      headers: {
        authorization: 'Bearer node-token',
        'content-type': 'application/octet-stream',
        'x-debesis-file-name': 'r-20261207T010500000Z',
        [REPLICA_PARENT_HEADER]: 'r-20261207T010000000Z',
        cookie: 'not=passed',
      },
      raw: Readable.from([bytes.subarray(0, 50_000), bytes.subarray(50_000)]),
    } as unknown as FastifyRequest;
    const log = { warn: () => undefined } as unknown as FastifyBaseLogger;
    expect(await forwardStream(owner, 'call-1', request, log)).toBe(true);
    expect(seen.url).toBe('/api/v1/nodes/calls/call-1/stream');
    expect(seen.headers).toMatchObject({
      authorization: 'Bearer node-token',
      'x-debesis-file-name': 'r-20261207T010500000Z',
      [REPLICA_PARENT_HEADER]: 'r-20261207T010000000Z',
    });
    expect(seen.headers?.cookie).toBeUndefined();
    expect(seen.headers?.['content-length']).toBeUndefined();
    expect(seen.body?.equals(bytes)).toBe(true);
  });
});
