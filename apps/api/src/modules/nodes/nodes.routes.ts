// The agent-facing routes. They authenticate with bearer tokens, not browser cookies, so they
// are exempt from CSRF.
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  nodeDesiredStateResponseSchema,
  nodeRegisterRequestSchema,
  nodeRegisterResponseSchema,
  nodeReportRequestSchema,
  nodeReportResponseSchema,
} from '@debesis/contract';
import type { NodesService } from './nodes.service.ts';

function bearerToken(request: FastifyRequest): string {
  const header = request.headers.authorization ?? '';
  return header.startsWith('Bearer ') ? header.slice('Bearer '.length).trim() : '';
}

export const nodesRoutes: FastifyPluginAsyncZod<{ nodes: NodesService }> = async (app, { nodes }) => {
  const agentRoute = { csrf: false };
  // Agents call every few seconds; their routine requests would drown the log. Failures still log.
  const logLevel = 'warn';

  app.post(
    '/register',
    {
      config: agentRoute,
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
    async (request) => nodes.desiredState(await nodes.authenticate(bearerToken(request))),
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
      const node = await nodes.authenticate(bearerToken(request));
      await nodes.report(node, request.body);
      return { ok: true as const };
    },
  );
};
