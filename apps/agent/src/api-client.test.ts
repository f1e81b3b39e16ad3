import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
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
});
