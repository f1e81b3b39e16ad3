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
// `npm run ops -- nodes …` runs the same commands, and drains and removes nodes too.
import { createNodesQueries } from '../modules/nodes/nodes.queries.ts';
import { openConfiguredDatabase } from './configured-database.ts';
import { enroll, listIdentities, NODES_USAGE, revoke } from './nodes-commands.ts';

async function main(args: string[]) {
  const [command, name, hours] = args;
  if (!command) throw new Error(NODES_USAGE);
  const { database } = await openConfiguredDatabase();
  try {
    const queries = createNodesQueries(database.db);
    switch (command) {
      case 'list': {
        const lines = await listIdentities(queries);
        if (lines.length > 0) console.log(lines.join('\n'));
        return;
      }
      case 'enroll':
        console.log((await enroll(queries, name, hours)).join('\n'));
        return;
      case 'revoke':
        console.log((await revoke(queries, name)).join('\n'));
        return;
      default:
        throw new Error(NODES_USAGE);
    }
  } finally {
    await database.close();
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
