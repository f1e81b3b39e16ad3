// Storage nodes: registration, authentication of their agents, heartbeats and the desired state
// they pull. Node tokens are random and kept only as SHA-256 hashes: a database leak does not
// let anyone act as a node.
//
// A node's identity is what reads its tenants' password hashes, so it changes hands only through
// a one-time enrollment token issued for that name (`npm run nodes -- enroll <name>`, or the
// embedded node's own, issued in-process): for a new name that enrolls it, for an existing one it
// is the operator's reset. The optional shared NODE_REGISTRATION_TOKEN may only create a name
// that does not exist yet. Every registration and every refused takeover is kept in
// node_registrations and logged; re-registrations and refusals also mail SUPPORT_EMAIL. What a node runs, and what its reports mean for the services placed
// on it, is the workspace module's (workspace-state.ts), passed in as `workspaces`: a node only
// ever sees and reports on its own workspaces.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type {
  NodeDesiredStateResponse,
  NodeRegisterRequest,
  NodeRegisterResponse,
  NodeReportRequest,
  WorkspaceDesiredState,
  WorkspaceReport,
} from '@debesis/contract';
import { unauthorized } from '../../http/app-error.ts';
import type { MailMessage } from '../../mail/mailer.ts';
import { NODE_OFFLINE_AFTER_MS } from './nodes.constants.ts';
import { nodeRegistrationAlert } from './nodes.alerts.ts';
import type { NodeRegistrationRow, NodeRow, NodesQueries, NodeValues } from './nodes.queries.ts';

export { NODE_OFFLINE_AFTER_MS };

/** The workspaces placed on a node, and what its reports mean for them (the workspace module). */
export interface NodeWorkspaces {
  desiredFor(nodeId: string): Promise<WorkspaceDesiredState[]>;
  applyReports(nodeId: string, reports: readonly WorkspaceReport[]): Promise<void>;
}

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
const newToken = () => randomBytes(32).toString('base64url');

/** How long an enrollment token is valid by default. */
export const ENROLLMENT_VALID_MS = 24 * 3_600_000;

/**
 * Issues the one-time token that lets an agent register as `name` (replacing any unused one).
 * For an existing node that is a reset: its next registration replaces its identity.
 */
export async function issueEnrollment(
  queries: Pick<NodesQueries, 'issueEnrollment'>,
  name: string,
  options: { now?: Date; validForMs?: number } = {},
): Promise<{ token: string; expiresAt: Date }> {
  const now = options.now ?? new Date();
  const token = newToken();
  const expiresAt = new Date(now.getTime() + (options.validForMs ?? ENROLLMENT_VALID_MS));
  await queries.issueEnrollment({ name, tokenHash: hashToken(token), expiresAt, now });
  return { token, expiresAt };
}

/** What registration logs; pino's shape. */
export interface NodesLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

function sameSecret(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

export function createNodesService(deps: {
  queries: NodesQueries;
  /** The shared token that may create new node names only; undefined: one-time tokens only. */
  registrationToken: string | undefined;
  /** The workspaces placed on a node, and what its reports mean for them. */
  workspaces: NodeWorkspaces;
  /** Where re-registrations and refused takeovers are mailed (SUPPORT_EMAIL). */
  alert?: { supportEmail: string; sendMail: (message: MailMessage) => Promise<void> };
  log?: NodesLog;
  /**
   * A new node joined: workspaces paid while no node had room are placed now, not at the next
   * two-minute retry.
   */
  onEnrolled?: () => Promise<void>;
  now?: () => Date;
}) {
  const now = deps.now ?? (() => new Date());

  async function record(
    values: Pick<NodeRegistrationRow, 'nodeName' | 'nodeId' | 'outcome' | 'via' | 'hostname' | 'ip'>,
  ): Promise<void> {
    const row = await deps.queries.recordRegistration({ ...values, createdAt: now() });
    const fields = {
      node: row.nodeName,
      node_id: row.nodeId,
      outcome: row.outcome,
      via: row.via,
      hostname: row.hostname,
      ip: row.ip,
    };
    if (row.outcome === 'enrolled') {
      deps.log?.info(fields, 'storage node enrolled');
      await deps.onEnrolled?.();
      return;
    }
    deps.log?.warn(
      fields,
      row.outcome === 'refused'
        ? 'refused: the shared registration token cannot take over an existing node'
        : 'storage node registered again: its old node token no longer works',
    );
    await deps.alert?.sendMail(nodeRegistrationAlert(row, deps.alert.supportEmail));
  }

  return {
    async register(
      presentedToken: string,
      request: NodeRegisterRequest,
      meta: { ip: string | null } = { ip: null },
    ): Promise<NodeRegisterResponse> {
      if (!presentedToken) throw unauthorized();
      const nodeToken = newToken();
      const values: NodeValues = {
        name: request.name,
        hostname: request.hostname,
        agentVersion: request.agent_version,
        tokenHash: hashToken(nodeToken),
        capacity: request.capacity,
        now: now(),
      };
      const seen = { nodeName: request.name, hostname: request.hostname, ip: meta.ip };

      if (await deps.queries.consumeEnrollment(request.name, hashToken(presentedToken), values.now)) {
        const existing = await deps.queries.findByName(request.name);
        const row = await deps.queries.upsertByName(values);
        await record({
          ...seen,
          nodeId: row.id,
          outcome: existing ? 're-registered' : 'enrolled',
          via: 'enrollment_token',
        });
        return { node_id: row.id, node_token: nodeToken };
      }

      if (deps.registrationToken && sameSecret(presentedToken, deps.registrationToken)) {
        const created = await deps.queries.insertNew(values);
        if (created) {
          await record({ ...seen, nodeId: created.id, outcome: 'enrolled', via: 'registration_token' });
          return { node_id: created.id, node_token: nodeToken };
        }
        const existing = await deps.queries.findByName(request.name);
        await record({
          ...seen,
          nodeId: existing?.id ?? null,
          outcome: 'refused',
          via: 'registration_token',
        });
      }
      throw unauthorized();
    },

    /** The audit trail of one node name, oldest first. */
    registrations(name: string): Promise<NodeRegistrationRow[]> {
      return deps.queries.registrationsOf(name);
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
