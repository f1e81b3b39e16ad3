// The node identity commands shared by `npm run nodes` and `npm run ops -- nodes`: list, enroll,
// revoke. Each answers the lines to print; a refusal is an Error with the line to show.
import { randomBytes } from 'node:crypto';
import { nodeRegisterRequestSchema } from '@debesis/contract';
import type { NodesQueries } from '../modules/nodes/nodes.queries.ts';
import { issueEnrollment } from '../modules/nodes/nodes.service.ts';

export const NODES_USAGE = 'usage: npm run nodes -- list | enroll <name> [hours] | revoke <name>';

export function nodeName(text: string | undefined, usage = NODES_USAGE): string {
  const parsed = nodeRegisterRequestSchema.shape.name.safeParse(text);
  if (!parsed.success)
    throw new Error(`${usage}\n<name>: lowercase letters, digits and "-", at most 63 characters`);
  return parsed.data;
}

/** Every node: last heard from, and any unused enrollment token. */
export async function listIdentities(queries: NodesQueries): Promise<string[]> {
  return (await queries.list()).map((entry) => {
    const seen = entry.node?.lastSeenAt?.toISOString() ?? 'never';
    const pending = entry.enrollmentExpiresAt
      ? `  enrollment token unused, valid until ${entry.enrollmentExpiresAt.toISOString()}`
      : '';
    return `${entry.name.padEnd(24)} ${(entry.node?.hostname ?? '(not registered)').padEnd(32)} last seen ${seen}${pending}`;
  });
}

/** A one-time enrollment token for the name (for an existing node: its reset). */
export async function enroll(
  queries: NodesQueries,
  name: string | undefined,
  hours: string | undefined,
  usage = NODES_USAGE,
): Promise<string[]> {
  const target = nodeName(name, usage);
  if (hours !== undefined && !/^\d{1,3}$/.test(hours)) throw new Error(`${usage}\n[hours]: 1 to 999`);
  const validForMs = (hours ? Math.max(1, Number(hours)) : 24) * 3_600_000;
  const existing = await queries.findByName(target);
  const { token, expiresAt } = await issueEnrollment(queries, target, { validForMs });
  return [
    existing
      ? `${target} exists: registering with this token resets it (new node token; the old one stops working).`
      : `${target} is a new node.`,
    `One-time enrollment token, valid until ${expiresAt.toISOString()}:`,
    '',
    `  AGENT_NODE_NAME=${target}`,
    `  AGENT_REGISTRATION_TOKEN=${token}`,
    '',
    'Set both for the agent on that host; the first registration spends the token.',
  ];
}

/** The node's token stops working now; `enroll` brings it back. */
export async function revoke(
  queries: NodesQueries,
  name: string | undefined,
  usage = NODES_USAGE,
): Promise<string[]> {
  const target = nodeName(name, usage);
  // A hash no token has: the node cannot authenticate until it is enrolled again.
  const revoked = await queries.revokeToken(target, `revoked-${randomBytes(16).toString('hex')}`);
  if (!revoked) throw new Error(`no node named ${target}`);
  return [`${target}: node token revoked; \`npm run nodes -- enroll ${target}\` brings it back`];
}
