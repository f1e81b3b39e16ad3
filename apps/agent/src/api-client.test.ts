import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough, Readable } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, ApiUnauthorizedError, createApiClient } from './api-client.ts';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

/** A server that answers every request with `answer`, recording method, path, auth and body. */
async function serve(answer: (res: ServerResponse) => void) {
  const seen: { method?: string; url?: string; auth?: string; body: string }[] = [];
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      seen.push({ method: req.method, url: req.url, auth: req.headers.authorization, body });
      answer(res);
    });
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return { seen, url: `http://127.0.0.1:${port}` };
}

const json = (status: number, body: unknown) => (res: ServerResponse) =>
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

const failureOf = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(error)}`);
  return error;
};

const NODE_ID = '7d3c1c9e-5b1f-4a52-8d7e-1c2b3a4d5e6f';

describe('api client', () => {
  it('sends the bearer token to <base>/api/v1/nodes/… and parses the answer', async () => {
    const { seen, url } = await serve(json(200, { node_id: NODE_ID, workspaces: [] }));
    const client = createApiClient({ baseUrl: `${url}/prefix`, timeoutMs: 2000 });
    await expect(client.desiredState('tok')).resolves.toEqual({ node_id: NODE_ID, workspaces: [] });
    expect(seen[0]).toMatchObject({
      method: 'GET',
      url: '/prefix/api/v1/nodes/desired-state',
      auth: 'Bearer tok',
    });
  });

  it('posts the report as JSON', async () => {
    const { seen, url } = await serve(json(200, { ok: true }));
    const client = createApiClient({ baseUrl: url, timeoutMs: 2000 });
    const report = {
      agent_version: '0.0.0',
      capacity: { disk_total_bytes: 10, disk_free_bytes: 5, addresses: [] },
      workspaces: [],
    };
    await client.report('tok', report);
    expect(seen[0]?.url).toBe('/api/v1/nodes/report');
    expect(JSON.parse(seen[0]?.body ?? '')).toEqual(report);
  });

  it('tells a 401 apart from other failures', async () => {
    const { url } = await serve(json(401, { detail: 'unauthorized', message: 'Please sign in.' }));
    const error = await failureOf(createApiClient({ baseUrl: url, timeoutMs: 2000 }).desiredState('old'));
    expect(error).toBeInstanceOf(ApiUnauthorizedError);
    expect(error).toMatchObject({ status: 401, detail: 'unauthorized' });
  });

  it('reports a server error with its status and detail', async () => {
    const { url } = await serve(json(503, { detail: 'service_unavailable', message: 'Later.' }));
    const error = await failureOf(createApiClient({ baseUrl: url, timeoutMs: 2000 }).desiredState('tok'));
    expect(error).not.toBeInstanceOf(ApiUnauthorizedError);
    expect(error).toMatchObject({ failure: 'http', status: 503, detail: 'service_unavailable' });
    expect(error.message).toBe('GET /api/v1/nodes/desired-state: 503 service_unavailable');
  });

  it('refuses an answer that does not match the contract', async () => {
    const { url } = await serve(json(200, { node_id: 'not-a-uuid', workspaces: 'none' }));
    const error = await failureOf(createApiClient({ baseUrl: url, timeoutMs: 2000 }).desiredState('tok'));
    expect(error.failure).toBe('invalid_response');
  });

  it('gives up after the time-out', async () => {
    const { url } = await serve(() => undefined);
    const error = await failureOf(createApiClient({ baseUrl: url, timeoutMs: 100 }).desiredState('tok'));
    expect(error.failure).toBe('timeout');
  });

  it('reports an unreachable API as a network failure', async () => {
    const { url } = await serve(json(200, {}));
    server?.close();
    const error = await failureOf(createApiClient({ baseUrl: url, timeoutMs: 2000 }).desiredState('tok'));
    expect(error).toMatchObject({ failure: 'network' });
    expect(error.message).toContain('ECONNREFUSED');
  });

  it('checks what it sends against the contract before sending', async () => {
    const { seen, url } = await serve(json(200, {}));
    const client = createApiClient({ baseUrl: url, timeoutMs: 2000 });
    const bad = {
      name: 'Bad Name',
      hostname: 'h',
      agent_version: '1',
      capacity: { disk_total_bytes: -1, disk_free_bytes: 0, addresses: [] },
    };
    await expect(client.register('reg', bad)).rejects.toThrow();
    expect(seen).toHaveLength(0);
  });

  describe("a stream call's bytes (node:http)", () => {
    const CALL = '5f0c6a7e-2b1d-4c3e-9f8a-7b6c5d4e3f21';

    /** A server handing each request to `handle` (the test reads or ignores the body). */
    async function raw(handle: (req: IncomingMessage, res: ServerResponse) => void) {
      server = createServer(handle);
      await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    }

    it('uploads the bytes with the token, name, size and what else the stream says of them', async () => {
      const { seen, url } = await serve(json(200, { ok: true }));
      let headers: IncomingMessage['headers'] = {};
      server?.prependListener('request', (req: IncomingMessage) => (headers = req.headers));
      const client = createApiClient({ baseUrl: url, timeoutMs: 2000 });
      await client.streamNodeCall('tok', CALL, {
        name: 'report ž.pdf',
        size: 5,
        meta: {
          range: { start: 10, end: 14, total: 100 },
          etag: '"abc-1"',
          modified_at: '2026-01-02T03:04:05.000Z',
          type: 'file',
        },
        body: Readable.from([Buffer.from('hel'), Buffer.from('lo')]),
      });
      expect(seen[0]).toMatchObject({
        method: 'POST',
        url: `/api/v1/nodes/calls/${CALL}/stream`,
        auth: 'Bearer tok',
        body: 'hello',
      });
      expect(headers).toMatchObject({
        'content-type': 'application/octet-stream',
        'content-length': '5',
        'x-debesis-file-name': encodeURIComponent('report ž.pdf'),
        'x-debesis-file-size': '5',
        'x-debesis-file-range': 'bytes 10-14/100',
        'x-debesis-file-etag': '"abc-1"',
        'x-debesis-file-modified': '2026-01-02T03:04:05.000Z',
        'x-debesis-file-type': 'file',
      });
    });

    it('sends a stream of unknown length chunked, without a size', async () => {
      let headers: IncomingMessage['headers'] = {};
      const url = await raw((req, res) => {
        headers = req.headers;
        req.resume();
        req.on('end', () => json(200, { ok: true })(res));
      });
      await createApiClient({ baseUrl: url, timeoutMs: 2000 }).streamNodeCall('tok', CALL, {
        name: 'folder.zip',
        size: null,
        meta: { type: 'zip' },
        body: Readable.from([Buffer.from('PK')]),
      });
      expect(headers['transfer-encoding']).toBe('chunked');
      expect(headers['x-debesis-file-size']).toBeUndefined();
      expect(headers['x-debesis-file-type']).toBe('zip');
    });

    it('tells a 401 and a 404 apart, even when the API answers before reading the bytes', async () => {
      const url = await raw((req, res) =>
        req.headers.authorization === 'Bearer old'
          ? json(401, { detail: 'unauthorized', message: 'Please sign in.' })(res)
          : json(404, { detail: 'not_found', message: 'Not found.' })(res),
      );
      const client = createApiClient({ baseUrl: url, timeoutMs: 2000 });
      const big = () => Readable.from(Array.from({ length: 64 }, () => Buffer.alloc(1024 * 1024)));
      const unauthorized = await failureOf(
        client.streamNodeCall('old', CALL, { name: 'a', size: null, body: big() }),
      );
      expect(unauthorized).toBeInstanceOf(ApiUnauthorizedError);
      const gone = await failureOf(
        client.streamNodeCall('tok', CALL, { name: 'a', size: null, body: big() }),
      );
      expect(gone).toMatchObject({ failure: 'http', status: 404, detail: 'not_found' });
    });

    it('fails as a network failure when the API cuts the connection midway', async () => {
      const url = await raw((req) => req.once('data', () => req.socket.destroy()));
      const body = new PassThrough();
      body.write(Buffer.alloc(1024));
      const error = await failureOf(
        createApiClient({ baseUrl: url, timeoutMs: 2000 }).streamNodeCall('tok', CALL, {
          name: 'a',
          size: null,
          body,
        }),
      );
      expect(error.failure).toBe('network');
      expect(body.destroyed).toBe(true);
    });

    it('cuts the upload when the bytes fail midway, so the API never takes it for whole', async () => {
      let ended: boolean | undefined;
      const url = await raw((req) => {
        req.resume();
        req.once('close', () => (ended = req.complete));
      });
      const body = new PassThrough();
      body.write(Buffer.alloc(1024));
      setTimeout(() => body.destroy(new Error('the file got shorter while it was read')), 50);
      const error = await failureOf(
        createApiClient({ baseUrl: url, timeoutMs: 2000 }).streamNodeCall('tok', CALL, {
          name: 'a',
          size: 4096,
          body,
        }),
      );
      expect(error).toMatchObject({ failure: 'network' });
      expect(error.message).toContain('shorter');
      await vi.waitFor(() => expect(ended).toBe(false));
    });

    it('stops when the agent stops (its signal), as an aborted call', async () => {
      const url = await raw((req) => req.resume());
      const stop = new AbortController();
      const client = createApiClient({ baseUrl: url, timeoutMs: 100, signal: stop.signal });
      const body = new PassThrough();
      const uploading = client.streamNodeCall('tok', CALL, { name: 'a', size: null, body });
      body.write(Buffer.alloc(1024));
      // Past the ordinary time-out: an upload has none.
      setTimeout(() => stop.abort(), 300);
      const error = await failureOf(uploading);
      expect(error.failure).toBe('aborted');
    });
  });
});

describe("a standby's replica pull", () => {
  const SERVICE = '0b7c2a4e-1d3f-4e5a-9b8c-7d6e5f4a3b21';
  const NAME = 'r-20261207T014512345Z';
  const PARENT = 'r-20261207T014442000Z';

  it('GETs the stream with the token and the parent, and hands over its name, parent and bytes', async () => {
    const { seen, url } = await serve((res) =>
      res
        .writeHead(200, {
          'content-type': 'application/octet-stream',
          'x-debesis-replica': NAME,
          'x-debesis-replica-parent': PARENT,
        })
        .end('btrfs-stream'),
    );
    const stream = await createApiClient({ baseUrl: url, timeoutMs: 2000 }).replicaStream(
      'tok',
      SERVICE,
      PARENT,
    );
    expect(stream).toMatchObject({ name: NAME, parent: PARENT });
    const chunks: Buffer[] = [];
    for await (const chunk of stream.body) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('btrfs-stream');
    expect(seen[0]).toMatchObject({
      method: 'GET',
      url: `/api/v1/nodes/replicas/${SERVICE}/stream?parent=${PARENT}`,
      auth: 'Bearer tok',
    });
  });

  it('asks for a whole send without a parent; refuses a stream that names no replica; says why the API refused', async () => {
    const { seen, url } = await serve((res) => res.writeHead(200).end('x'));
    const client = createApiClient({ baseUrl: url, timeoutMs: 2000 });
    expect((await failureOf(client.replicaStream('tok', SERVICE, undefined))).failure).toBe(
      'invalid_response',
    );
    expect(seen[0]?.url).toBe(`/api/v1/nodes/replicas/${SERVICE}/stream`);
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    const refusing = await serve(json(409, { detail: 'the primary does not answer' }));
    const failure = await failureOf(
      createApiClient({ baseUrl: refusing.url, timeoutMs: 2000 }).replicaStream('tok', SERVICE, undefined),
    );
    expect(failure).toMatchObject({ failure: 'http', status: 409, detail: 'the primary does not answer' });
  });

  it('sends what a stream call says beyond its meta as headers (a replica’s parent)', async () => {
    let headers: IncomingMessage['headers'] = {};
    server = createServer((req, res) => {
      headers = req.headers;
      req.resume();
      req.on('end', () => json(200, { ok: true })(res));
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await createApiClient({ baseUrl: url, timeoutMs: 2000 }).streamNodeCall('tok', 'c-1', {
      name: NAME,
      size: null,
      headers: { 'x-debesis-replica-parent': PARENT },
      body: Readable.from([Buffer.from('btrfs')]),
    });
    expect(headers).toMatchObject({
      'x-debesis-file-name': NAME,
      'x-debesis-replica-parent': PARENT,
      'transfer-encoding': 'chunked',
    });
    expect(headers['x-debesis-file-size']).toBeUndefined();
  });
});
