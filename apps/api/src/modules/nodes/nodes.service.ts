// Storage nodes: registration, authentication of their agents, heartbeats and the desired state
// they pull. Node tokens are random and kept only as SHA-256 hashes: a database leak does not
// let anyone act as a node. What a node runs, and what its reports mean for the services placed
// on it, is the services module's (workspace-state.ts): a node only ever sees and reports on its
// own workspaces.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type {
  NodeDesiredStateResponse,
  NodeRegisterRequest,
  NodeRegisterResponse,
  NodeReportRequest,
} from '@debesis/contract';
import { unauthorized } from '../../http/app-error.ts';
import { NODE_OFFLINE_AFTER_MS } from '../services/lifecycle.constants.ts';
import type { WorkspaceStateService } from '../services/workspace-state.ts';
import type { NodeRow, NodesQueries } from './nodes.queries.ts';

export { NODE_OFFLINE_AFTER_MS };

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

function sameSecret(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

export function createNodesService(deps: {
  queries: NodesQueries;
  registrationToken: string;
  /** The workspaces placed on a node, and what its reports mean for them. */
  workspaces: Pick<WorkspaceStateService, 'desiredFor' | 'applyReports'>;
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
      await deps.workspaces.applyReports(node.id, request.workspaces);
    },

    /** The workspaces placed on this node, as it should run them. */
    async desiredState(node: NodeRow): Promise<NodeDesiredStateResponse> {
      return { node_id: node.id, workspaces: await deps.workspaces.desiredFor(node.id) };
    },

    /** When the node last reported; null for a node never heard from (or unknown). */
    async lastSeen(nodeId: string): Promise<Date | null> {
      return (await deps.queries.findById(nodeId))?.lastSeenAt ?? null;
    },

    summary(): Promise<{ total: number; online: number }> {
      return deps.queries.countNodes(new Date(now().getTime() - NODE_OFFLINE_AFTER_MS));
    },
  };
}

export type NodesService = ReturnType<typeof createNodesService>;
