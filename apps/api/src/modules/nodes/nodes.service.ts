// Storage nodes: registration, authentication of their agents, heartbeats and the desired state
// they pull. Node tokens are random and kept only as SHA-256 hashes: a database leak does not
// let anyone act as a node.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type {
  NodeDesiredStateResponse,
  NodeRegisterRequest,
  NodeRegisterResponse,
  NodeReportRequest,
} from '@debesis/contract';
import { unauthorized } from '../../http/app-error.ts';
import type { NodeRow, NodesQueries } from './nodes.queries.ts';

/** A node whose agent has not reported for this long counts as offline. */
export const NODE_OFFLINE_AFTER_MS = 60_000;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

function sameSecret(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

export function createNodesService(deps: {
  queries: NodesQueries;
  registrationToken: string;
  now?: () => Date;
}) {
  const now = deps.now ?? (() => new Date());

  return {
    async register(presentedToken: string, request: NodeRegisterRequest): Promise<NodeRegisterResponse> {
      if (!sameSecret(presentedToken, deps.registrationToken)) throw unauthorized();
      const nodeToken = randomBytes(32).toString('base64url');
      const row = await deps.queries.upsertByName({
        name: request.name,
        hostname: request.hostname,
        agentVersion: request.agent_version,
        tokenHash: hashToken(nodeToken),
        capacity: request.capacity,
        now: now(),
      });
      return { node_id: row.id, node_token: nodeToken };
    },

    async authenticate(presentedToken: string): Promise<NodeRow> {
      const row = presentedToken ? await deps.queries.findByTokenHash(hashToken(presentedToken)) : undefined;
      if (!row) throw unauthorized();
      return row;
    },

    async report(node: NodeRow, request: NodeReportRequest): Promise<void> {
      await deps.queries.recordReport(node.id, {
        agentVersion: request.agent_version,
        capacity: request.capacity,
        now: now(),
      });
    },

    /** Workspaces placed on this node. Services arrive with the workspace issue; none are placed yet. */
    desiredState(node: NodeRow): Promise<NodeDesiredStateResponse> {
      return Promise.resolve({ node_id: node.id, workspaces: [] });
    },

    summary(): Promise<{ total: number; online: number }> {
      return deps.queries.countNodes(new Date(now().getTime() - NODE_OFFLINE_AFTER_MS));
    },
  };
}

export type NodesService = ReturnType<typeof createNodesService>;
