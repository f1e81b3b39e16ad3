// A stand-in for the control plane's node routes (node calls included, long poll and all), on 127.0.0.1 and a free port, for the
// agent's tests. It checks every request body against the contract, as the real API does, and
// records what it received.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  nodeCallResultRequestSchema,
  nodeRegisterRequestSchema,
  nodeReportRequestSchema,
  type NodeCall,
  type NodeCallResultRequest,
  type NodeRegisterRequest,
  type NodeReportRequest,
  type WorkspaceDesiredState,
} from '@debesis/contract';

export interface FakeApi {
  url: string;
  registrationToken: string;
  registrations: NodeRegisterRequest[];
  reports: NodeReportRequest[];
  desiredStateCalls: number;
  /** Requests whose body did not match the contract. */
  invalid: string[];
  /** The desired state served to every node; change it between passes. */
  workspaces: WorkspaceDesiredState[];
  /** The desired-state route answers `status` to the next `count` calls. */
  failNext(count: number, status?: number): void;
  /** Every node token stops working (as if the node was deleted and re-created). */
  revokeTokens(): void;
  /** Hands `call` to the next (or the waiting) GET /nodes/calls of any node. */
  enqueueCall(call: NodeCall): void;
  /** The answers nodes posted, by call id. */
  answers: Map<string, NodeCallResultRequest>;
  /** Resolves with the answer to `callId` once a node posts it (rejects after `timeoutMs`). */
  answerTo(callId: string, timeoutMs?: number): Promise<NodeCallResultRequest>;
  /** Stream calls' bytes as nodes uploaded them to the end, by call id. */
  streams: Map<string, { headers: IncomingHttpHeaders; body: Buffer }>;
  /** Resolves with `callId`'s uploaded bytes once its upload has ended (rejects after `timeoutMs`). */
  streamOf(callId: string, timeoutMs?: number): Promise<{ headers: IncomingHttpHeaders; body: Buffer }>;
  /** Stream uploads begun and not ended yet. */
  uploading: number;
  /** GET /nodes/calls requests received (held ones included). */
  callPolls: number;
  /** The calls route answers `status` to the next `count` polls. */
  failNextPolls(count: number, status?: number): void;
  currentToken(name: string): string | undefined;
  close(): Promise<void>;
}

export async function startFakeApi(): Promise<FakeApi> {
  const nodes = new Map<string, { id: string; token: string }>();
  let failures = 0;
  let failureStatus = 500;
  let pollFailures = 0;
  let pollFailureStatus = 500;
  const queuedCalls: NodeCall[] = [];
  const pollWaiters = new Set<() => void>();

  const bearer = (req: IncomingMessage) => /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
  const nodeFor = (req: IncomingMessage) => {
    const token = bearer(req);
    return [...nodes.values()].find((node) => node.token === token);
  };
  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };
  const unauthorized = (res: ServerResponse) =>
    send(res, 401, { detail: 'unauthorized', message: 'Please sign in.' });

  const api: FakeApi = {
    url: '',
    registrationToken: `reg-${randomUUID()}`,
    registrations: [],
    reports: [],
    desiredStateCalls: 0,
    invalid: [],
    workspaces: [],
    failNext(count, status = 500) {
      failures = count;
      failureStatus = status;
    },
    revokeTokens() {
      for (const node of nodes.values()) node.token = `revoked-${randomUUID()}`;
    },
    currentToken: (name) => nodes.get(name)?.token,
    enqueueCall(call) {
      queuedCalls.push(call);
      for (const wake of pollWaiters) wake();
    },
    answers: new Map(),
    streams: new Map(),
    async streamOf(callId, timeoutMs = 5000) {
      await waitFor(() => api.streams.has(callId), timeoutMs, `the bytes of ${callId}`);
      return api.streams.get(callId)!;
    },
    uploading: 0,
    async answerTo(callId, timeoutMs = 5000) {
      await waitFor(() => api.answers.has(callId), timeoutMs, `the answer to ${callId}`);
      return api.answers.get(callId) as NodeCallResultRequest;
    },
    callPolls: 0,
    failNextPolls(count, status = 500) {
      pollFailures = count;
      pollFailureStatus = status;
    },
    close: () =>
      new Promise((resolve, reject) => {
        for (const wake of pollWaiters) wake();
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    const streamed = /^\/api\/v1\/nodes\/calls\/([^/]+)\/stream$/.exec(req.url ?? '');
    if (req.method === 'POST' && streamed?.[1]) {
      // Bytes, not JSON: taken as they come; answered once they have all come, as the API does.
      if (!nodeFor(req)) return unauthorized(res);
      api.uploading += 1;
      req.once('close', () => (api.uploading -= 1));
      const callId = decodeURIComponent(streamed[1]);
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        api.streams.set(callId, { headers: req.headers, body: Buffer.concat(chunks) });
        send(res, 200, { ok: true });
      });
      return;
    }
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const body: unknown = text ? JSON.parse(text) : undefined;
      const url = new URL(req.url ?? '/', 'http://fake');
      const route = `${req.method} ${url.pathname}`;
      const answered = /^POST \/api\/v1\/nodes\/calls\/([^/]+)\/result$/.exec(route);
      if (answered?.[1]) {
        if (!nodeFor(req)) return unauthorized(res);
        const parsed = nodeCallResultRequestSchema.safeParse(body);
        if (!parsed.success) {
          api.invalid.push(route);
          return send(res, 422, { detail: 'validation_error', message: 'invalid' });
        }
        api.answers.set(decodeURIComponent(answered[1]), parsed.data);
        return send(res, 200, { ok: true });
      }
      switch (route) {
        case 'GET /api/v1/nodes/calls': {
          if (!nodeFor(req)) return unauthorized(res);
          api.callPolls += 1;
          if (pollFailures > 0) {
            pollFailures -= 1;
            return send(res, pollFailureStatus, { detail: 'server_error', message: 'Something went wrong.' });
          }
          const waitMs = Number(url.searchParams.get('wait_ms') ?? 25_000);
          const handOut = () => send(res, 200, { calls: queuedCalls.splice(0, 100) });
          if (queuedCalls.length > 0 || waitMs <= 0) return handOut();
          const wake = () => {
            clearTimeout(timer);
            pollWaiters.delete(wake);
            if (!res.writableEnded && !res.destroyed) handOut();
          };
          const timer = setTimeout(wake, waitMs);
          pollWaiters.add(wake);
          res.once('close', () => {
            clearTimeout(timer);
            pollWaiters.delete(wake);
          });
          return;
        }
        case 'POST /api/v1/nodes/register': {
          if (bearer(req) !== api.registrationToken) return unauthorized(res);
          const parsed = nodeRegisterRequestSchema.safeParse(body);
          if (!parsed.success) {
            api.invalid.push(route);
            return send(res, 422, { detail: 'validation_error', message: 'invalid' });
          }
          api.registrations.push(parsed.data);
          // The same name again keeps the node and rotates its token.
          const node = nodes.get(parsed.data.name) ?? { id: randomUUID(), token: '' };
          node.token = `node-${randomUUID()}`;
          nodes.set(parsed.data.name, node);
          return send(res, 200, { node_id: node.id, node_token: node.token });
        }
        case 'GET /api/v1/nodes/desired-state': {
          const node = nodeFor(req);
          if (!node) return unauthorized(res);
          api.desiredStateCalls += 1;
          if (failures > 0) {
            failures -= 1;
            return send(res, failureStatus, { detail: 'server_error', message: 'Something went wrong.' });
          }
          return send(res, 200, { node_id: node.id, workspaces: api.workspaces });
        }
        case 'POST /api/v1/nodes/report': {
          if (!nodeFor(req)) return unauthorized(res);
          const parsed = nodeReportRequestSchema.safeParse(body);
          if (!parsed.success) {
            api.invalid.push(route);
            return send(res, 422, { detail: 'validation_error', message: 'invalid' });
          }
          api.reports.push(parsed.data);
          return send(res, 200, { ok: true });
        }
        default:
          return send(res, 404, { detail: 'not_found', message: 'Not found.' });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  api.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return api;
}

/** Polls `check` until it returns true (or throws after `timeoutMs`): waits for a condition, not a time. */
export async function waitFor(check: () => boolean, timeoutMs = 5000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
