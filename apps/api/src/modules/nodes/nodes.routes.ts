// The agent-facing routes. They authenticate with bearer tokens, not browser cookies, so they
// are exempt from CSRF.
import { finished } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  NODE_STREAM_NAME_HEADER,
  NODE_STREAM_SIZE_HEADER,
  nodeStreamMetaFromHeaders,
  nodeCallParamsSchema,
  nodeCallResultRequestSchema,
  nodeCallResultResponseSchema,
  nodeCallsQuerySchema,
  nodeCallsResponseSchema,
  nodeDesiredStateResponseSchema,
  nodeRegisterRequestSchema,
  nodeRegisterResponseSchema,
  nodeReportRequestSchema,
  nodeReportResponseSchema,
  REPLICA_NAME_HEADER,
  REPLICA_NAME_PATTERN,
  REPLICA_PARENT_HEADER,
  replicaStreamParamsSchema,
  replicaStreamQuerySchema,
} from '@debesis/contract';
import { notFound } from '../../http/app-error.ts';
import { currentNode } from '../../http/caller.ts';
import type { NodeCallStream, NodeCallsHub } from './node-calls.ts';

/** The standbys' pulls (modules/replicas/replica-relay.ts), given by the app. */
export interface ReplicaPuller {
  pull(nodeId: string, serviceId: string, parent: string | undefined): Promise<NodeCallStream>;
}
import { forwardAnswer, forwardStream } from './node-calls-forward.ts';
import type { NodesService } from './nodes.service.ts';

function bearerToken(request: FastifyRequest): string {
  const header = request.headers.authorization ?? '';
  return header.startsWith('Bearer ') ? header.slice('Bearer '.length).trim() : '';
}

export const nodesRoutes: FastifyPluginAsyncZod<{
  nodes: NodesService;
  calls: NodeCallsHub;
  /** The standbys' pulls (replicas.ts); absent: the route is not offered. */
  replicas?: ReplicaPuller;
}> = async (app, { nodes, calls, replicas }) => {
  // The enrollment call carries the one-time registration token (or the node's own), which the
  // service checks and records; every other call carries the node's token.
  const enrollment = { access: 'public', csrf: false } as const;
  const agentRoute = { access: 'node', csrf: false } as const;
  // Agents call every few seconds; their routine requests would drown the log. Failures still log.
  const logLevel = 'warn';

  app.post(
    '/register',
    {
      config: enrollment,
      logLevel,
      schema: {
        tags: ['nodes'],
        summary: 'Register a storage node (its one-time enrollment token)',
        body: nodeRegisterRequestSchema,
        response: { 200: nodeRegisterResponseSchema },
      },
    },
    async (request) => nodes.register(bearerToken(request), request.body, { ip: request.ip }),
  );

  app.get(
    '/desired-state',
    {
      config: agentRoute,
      logLevel,
      schema: {
        tags: ['nodes'],
        summary: 'What the calling node should run (node token)',
        response: { 200: nodeDesiredStateResponseSchema },
      },
    },
    async (request) => nodes.desiredState(currentNode(request)),
  );

  app.post(
    '/report',
    {
      config: agentRoute,
      logLevel,
      schema: {
        tags: ['nodes'],
        summary: 'Heartbeat with capacity and what the node has applied (node token)',
        body: nodeReportRequestSchema,
        response: { 200: nodeReportResponseSchema },
      },
    },
    async (request) => {
      await nodes.report(currentNode(request), request.body);
      return { ok: true as const };
    },
  );

  app.get(
    '/calls',
    {
      config: agentRoute,
      logLevel,
      schema: {
        tags: ['nodes'],
        summary:
          'The calls waiting for the calling node; held open up to wait_ms until one comes (node token)',
        querystring: nodeCallsQuerySchema,
        response: { 200: nodeCallsResponseSchema },
      },
    },
    async (request, reply) => {
      const node = currentNode(request);
      // The response's close before it is sent means the agent went away: stop holding the poll,
      // so no call is handed to a connection nobody reads.
      const gone = new AbortController();
      const onClose = () => gone.abort();
      reply.raw.once('close', onClose);
      // Each poll on a connection of its own: a kept-alive socket that an agent polls again at once
      // (the hub answers at once while the app closes) would keep the server from ever closing.
      void reply.header('connection', 'close');
      try {
        return await calls.waiting(node.id, request.query.wait_ms, gone.signal);
      } finally {
        reply.raw.off('close', onClose);
      }
    },
  );

  app.post(
    '/calls/:callId/result',
    {
      config: agentRoute,
      logLevel,
      schema: {
        tags: ['nodes'],
        summary:
          "The node's answer to a call it was given; 404 when no call of this node awaits it (answered already, past its deadline, another node's) (node token)",
        params: nodeCallParamsSchema,
        body: nodeCallResultRequestSchema,
        response: { 200: nodeCallResultResponseSchema },
      },
    },
    async (request) => {
      const node = currentNode(request);
      if (calls.answer(node.id, request.params.callId, request.body)) return { ok: true as const };
      // Made on another API process: its caller waits there.
      const owner = await calls.ownerElsewhere(node.id, request.params.callId);
      if (!owner || !(await forwardAnswer(owner, request.params.callId, request, request.log)))
        throw notFound();
      return { ok: true as const };
    },
  );

  if (replicas) {
    app.get(
      '/replicas/:serviceId/stream',
      {
        config: agentRoute,
        logLevel,
        schema: {
          tags: ['nodes'],
          summary:
            "A standby's pull: the primary's replica (btrfs send, from `parent` when given) as it streams; 404 unless the calling node keeps the service's standby, 503 when the primary is unreachable (node token)",
          params: replicaStreamParamsSchema,
          querystring: replicaStreamQuerySchema,
        },
      },
      async (request, reply) => {
        const stream = await replicas.pull(
          currentNode(request).id,
          request.params.serviceId,
          request.query.parent,
        );
        // The standby going away cuts the primary's upload too (the hub's pipe is destroyed).
        reply.raw.once('close', () => {
          if (!stream.body.readableEnded) stream.body.destroy();
        });
        void reply.header(REPLICA_NAME_HEADER, stream.name);
        if (stream.replicaParent) void reply.header(REPLICA_PARENT_HEADER, stream.replicaParent);
        return reply.type('application/octet-stream').send(stream.body);
      },
    );
  }

  // A stream call's bytes (contract: NODE_STREAM_CALL_KINDS). The body is not parsed or buffered:
  // the request itself is handed to the caller, who pipes it on, and this answer waits until the
  // caller has read it all. A caller that goes away destroys it, and the agent's upload fails.
  await app.register(async (streams) => {
    streams.addContentTypeParser('application/octet-stream', (_request, payload, done) =>
      done(null, payload),
    );
    streams.withTypeProvider<ZodTypeProvider>().post(
      '/calls/:callId/stream',
      {
        config: agentRoute,
        logLevel,
        // The bytes pass through; no limit is read into memory.
        bodyLimit: Number.MAX_SAFE_INTEGER,
        schema: {
          tags: ['nodes'],
          summary:
            "The node's bytes for a stream call (application/octet-stream, the file's name and size in headers); 404 when no stream call of this node awaits them (node token)",
          params: nodeCallParamsSchema,
          response: { 200: nodeCallResultResponseSchema },
        },
      },
      async (request) => {
        const header = (name: string) => {
          const value = request.headers[name];
          return typeof value === 'string' ? value : undefined;
        };
        let name = '';
        try {
          name = decodeURIComponent(header(NODE_STREAM_NAME_HEADER) ?? '');
        } catch {
          // A malformed name: the caller names the file itself.
        }
        // A replica's size is not known up front (a chunked upload without the header): null.
        const size = Number(header(NODE_STREAM_SIZE_HEADER));
        const parent = header(REPLICA_PARENT_HEADER);
        const body = request.raw;
        const { socket } = body;
        const node = currentNode(request);
        const owner = await calls.ownerElsewhere(node.id, request.params.callId);
        if (owner) {
          // Made on another API process: the bytes flow on to it.
          if (await forwardStream(owner, request.params.callId, request, request.log))
            return { ok: true as const };
          if (!body.readableEnded) socket.destroy();
          throw notFound();
        }
        const delivered = calls.deliver(node.id, request.params.callId, {
          name,
          size: Number.isSafeInteger(size) && size >= 0 ? size : null,
          body,
          meta: nodeStreamMetaFromHeaders(header),
          ...(parent && REPLICA_NAME_PATTERN.test(parent) ? { replicaParent: parent } : {}),
        });
        if (!delivered) throw notFound();
        await finished(body).catch(() => undefined);
        // Cut before its end (the caller went away): the connection goes too, so the agent's
        // upload fails at once and nothing half-read is left open on it.
        if (!body.readableEnded) socket.destroy();
        return { ok: true as const };
      },
    );
  });
};
