// `npm run nodes -- <command>`: how operators give storage nodes their identity, against the
// database the configuration names (DATABASE_URL, or the embedded one in DATA_DIR; stop
// `npm start` first, the embedded database takes one process at a time).
//   list                          every node: last heard from, and any unused enrollment token
//   enroll <name> [hours]         prints a one-time token (valid 24 hours unless told) with which
//                                 the agent on that host registers as <name>: AGENT_NODE_NAME=<name>
//                                 AGENT_REGISTRATION_TOKEN=<token>. For an existing node this is its
//                                 reset: the registration gives it a new node token (recorded and
//                                 mailed to SUPPORT_EMAIL), and its old one stops working.
//   revoke <name>                 the node's token stops working now (a host lost or compromised);
//                                 `enroll` it again to bring it back.
// Run from the repository's root (paths such as DATA_DIR are taken from where npm was started).
import { randomBytes } from 'node:crypto';
import { nodeRegisterRequestSchema } from '@debesis/contract';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/database.ts';
import { prepareDatabase } from '../db/prepare.ts';
import { createNodesQueries } from '../modules/nodes/nodes.queries.ts';
import { issueEnrollment } from '../modules/nodes/nodes.service.ts';

const USAGE = 'usage: npm run nodes -- list | enroll <name> [hours] | revoke <name>';

function nodeName(text: string | undefined): string {
  const parsed = nodeRegisterRequestSchema.shape.name.safeParse(text);
  if (!parsed.success)
    throw new Error(`${USAGE}\n<name>: lowercase letters, digits and "-", at most 63 characters`);
  return parsed.data;
}

async function main(args: string[]) {
  const [command, name, hours] = args;
  if (!command) throw new Error(USAGE);
  const config = loadConfig(process.env, process.env.INIT_CWD ?? process.cwd());
  const database = await openDatabase({
    dataDir: config.dataDir,
    ...(config.DATABASE_URL ? { databaseUrl: config.DATABASE_URL } : {}),
  });
  try {
    await prepareDatabase(database);
    const queries = createNodesQueries(database.db);
    switch (command) {
      case 'list': {
        for (const entry of await queries.list()) {
          const seen = entry.node?.lastSeenAt?.toISOString() ?? 'never';
          const pending = entry.enrollmentExpiresAt
            ? `  enrollment token unused, valid until ${entry.enrollmentExpiresAt.toISOString()}`
            : '';
          console.log(
            `${entry.name.padEnd(24)} ${(entry.node?.hostname ?? '(not registered)').padEnd(32)} last seen ${seen}${pending}`,
          );
        }
        return;
      }
      case 'enroll': {
        const target = nodeName(name);
        if (hours !== undefined && !/^\d{1,3}$/.test(hours)) throw new Error(`${USAGE}\n[hours]: 1 to 999`);
        const validForMs = (hours ? Math.max(1, Number(hours)) : 24) * 3_600_000;
        const existing = await queries.findByName(target);
        const { token, expiresAt } = await issueEnrollment(queries, target, { validForMs });
        console.log(
          [
            existing
              ? `${target} exists: registering with this token resets it (new node token; the old one stops working).`
              : `${target} is a new node.`,
            `One-time enrollment token, valid until ${expiresAt.toISOString()}:`,
            '',
            `  AGENT_NODE_NAME=${target}`,
            `  AGENT_REGISTRATION_TOKEN=${token}`,
            '',
            'Set both for the agent on that host; the first registration spends the token.',
          ].join('\n'),
        );
        return;
      }
      case 'revoke': {
        const target = nodeName(name);
        // A hash no token has: the node cannot authenticate until it is enrolled again.
        const revoked = await queries.revokeToken(target, `revoked-${randomBytes(16).toString('hex')}`);
        if (!revoked) throw new Error(`no node named ${target}`);
        console.log(`${target}: node token revoked; \`npm run nodes -- enroll ${target}\` brings it back`);
        return;
      }
      default:
        throw new Error(USAGE);
    }
  } finally {
    await database.close();
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
