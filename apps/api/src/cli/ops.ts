// `npm run ops -- <area> <command> …`: the operator's console, against the database the
// configuration names (DATABASE_URL, or the embedded PGlite in DATA_DIR: stop `npm start` first,
// it takes one process at a time). Run from the repository's root.
//   nodes list [--json]                 every node: online, drained, disk, addresses, workspaces
//   nodes drain|undrain <name>          placement gives a drained node nothing new; it keeps serving
//   nodes remove <name>                 only a node holding no workspace but terminated ones;
//                                       otherwise prints what moving them would take
//   nodes fail <name>                   declare it failed: its workspaces fail over to their standbys now
//   nodes evacuate <name>               drain it and move every workspace off (two at a time)
//   nodes enroll <name> [hours] | revoke <name>     as `npm run nodes`
//   customers find <text> [--json]      an account id, or part of an email or name
//   customers suspend <email|id> [reason…] | unsuspend <email|id>
//   services show <service-id> [--json] desired beside observed, its standby and move
//   services move <service-id> <node>   sync, stop, final sync and switch to the node
//   payments list <email|id> [--json]
//   payments refund <payment-session-id> [--amount <EUR, e.g. 12.50>] [--end-service] [--reason <text>] [--key <text>]
//                                       gives the payment back (all that is left, or --amount euros)
//                                       and issues a credit note on its invoice; --end-service also
//                                       cancels the service, otherwise service and order keep running.
//                                       The same command twice refunds once (--key names another refund)
//   jobs list [--json] | run <name>     the scheduled jobs with their last run; one run now, once
//   secrets reseal [--json]             every sealed value under the current JWT_SECRET (after a
//                                       rotation, before JWT_SECRET_PREVIOUS is dropped)
//   catalogue …                         as `npm run catalogue`
// This file only reads the arguments and prints; the work is in ./ops/*.ts and the modules.
import { createNodesQueries } from '../modules/nodes/nodes.queries.ts';
import { createProductsQueries } from '../modules/products/products.queries.ts';
import { createProductsService } from '../modules/products/products.service.ts';
import { catalogueCommand } from './catalogue-commands.ts';
import { openConfiguredDatabase } from './configured-database.ts';
import { enroll, nodeName, revoke } from './nodes-commands.ts';
import { findCustomers, suspendCustomer, unsuspendCustomer } from './ops/customers.ts';
import { drain, nodeSummaries, removeNode, undrain } from './ops/nodes.ts';
import type { Database } from '../db/database.ts';
import { notifyNodeWake } from '../modules/nodes/node-calls-relay.ts';
import { configuredProvider } from '../modules/payments/configured-provider.ts';
import { creditNoteNotifier, listPayments, parseAmount, refund } from './ops/payments.ts';
import { sellerFromConfig } from '../modules/billing/billing.config.ts';
import {
  renderCustomers,
  renderJobRun,
  renderJobs,
  renderNodes,
  renderPayments,
  renderRefund,
  renderRemoval,
  renderReseal,
  renderService,
  renderSuspension,
} from './ops/render.ts';
import { resealSecrets } from './ops/secrets.ts';
import { serviceDetail } from './ops/services.ts';
import { evacuate, failNodeNow, moveService, type ReplicaOps } from './ops/replicas.ts';
import { createActivityQueries } from '../modules/activity/activity.queries.ts';
import { createActivityService } from '../modules/activity/activity.service.ts';
import { serverSecretOf } from '../config.ts';
import { configuredWorkerDeps, listJobs, runJob, WORKER_GRACE_MS, workHere } from './ops/jobs.ts';
import { startQueue } from '../jobs/queue.ts';

const USAGE = [
  'usage: npm run ops -- <area> <command> …',
  '  nodes list [--json] | drain <name> | undrain <name> | remove <name> | fail <name> | evacuate <name> | enroll <name> [hours] | revoke <name>',
  '  customers find <text> [--json] | suspend <email|id> [reason] | unsuspend <email|id>',
  '  services show <service-id> [--json] | move <service-id> <node>',
  '  payments list <email|id> [--json]',
  '  payments refund <payment-session-id> [--amount <EUR, e.g. 12.50>] [--end-service] [--reason <text>] [--key <text>]',
  '      refunds all that is left of the payment, or --amount euros, and issues a credit note on its invoice;',
  '      --end-service also ends (cancels) the service, otherwise the service and its order keep running;',
  '      the same command again refunds nothing more (a second refund of the same amount needs its own --key)',
  '  jobs list [--json] | run <name>',
  '  secrets reseal [--json]',
  '  catalogue list | set-price <id> <EUR> | activate <id> | deactivate <id>',
].join('\n');

/**
 * Tells the nodes of the services changed to pull now (on a server the process holding each
 * node's long poll wakes its agent); else they see it at their next poll.
 */
async function wakeNodesOf(database: Database, services: ReadonlyArray<{ nodeId: string | null }>) {
  const nodes = new Set(services.flatMap((service) => (service.nodeId ? [service.nodeId] : [])));
  for (const nodeId of nodes) await notifyNodeWake(database, nodeId).catch(() => undefined);
}

/** A refusal with the details that explain it: those go to stdout, its one line to stderr. */
class Refusal extends Error {
  constructor(
    message: string,
    readonly details: string,
  ) {
    super(message);
  }
}

interface Parsed {
  words: string[];
  json: boolean;
  reason: string | null;
  amount: string | null;
  key: string | null;
  endService: boolean;
}

function parse(args: readonly string[]): Parsed {
  const words: string[] = [];
  let json = false;
  let endService = false;
  const values: Record<'--reason' | '--amount' | '--key', string | null> = {
    '--reason': null,
    '--amount': null,
    '--key': null,
  };
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index]!;
    if (arg === '--json') json = true;
    else if (arg === '--end-service') endService = true;
    else if (arg === '--reason' || arg === '--amount' || arg === '--key') {
      const value = args[index + 1] ?? null;
      if (!value) throw new Error(`${arg} needs a ${arg === '--amount' ? 'number' : 'text'}\n${USAGE}`);
      values[arg] = value;
      index += 1;
    } else if (arg.startsWith('--')) throw new Error(`unknown option ${arg}\n${USAGE}`);
    else words.push(arg);
  }
  return {
    words,
    json,
    reason: values['--reason'],
    amount: values['--amount'],
    key: values['--key'],
    endService,
  };
}

function need(value: string | undefined, what: string): string {
  if (!value) throw new Error(`${what} is missing\n${USAGE}`);
  return value;
}

/** What the replica commands need, with the nodes they woke told before the process ends. */
function replicaOps(database: Database, now: Date): { ops: ReplicaOps; woken: () => Promise<void> } {
  const wakes: Promise<unknown>[] = [];
  return {
    ops: {
      db: database.db,
      activity: createActivityService({ queries: createActivityQueries(database.db) }),
      wakeNode: (nodeId) => wakes.push(notifyNodeWake(database, nodeId).catch(() => undefined)),
      now,
    },
    woken: async () => {
      await Promise.all(wakes);
    },
  };
}

async function main(args: readonly string[]): Promise<string> {
  const { words, json, reason, amount, key, endService } = parse(args);
  const [area, command, first, ...rest] = words;
  if (!area || !command) throw new Error(USAGE);
  const show = (data: unknown, text: () => string) => (json ? JSON.stringify(data, null, 2) : text());
  const { config, database } = await openConfiguredDatabase();
  const db = database.db;
  const now = new Date();
  try {
    switch (`${area} ${command}`) {
      case 'nodes list': {
        const nodes = await nodeSummaries(db, now);
        return show(nodes, () => renderNodes(nodes));
      }
      case 'nodes drain': {
        const node = await drain(db, nodeName(first, USAGE), now);
        return `${node.name}: drained; nothing new is placed on it, it keeps serving what it holds.`;
      }
      case 'nodes undrain': {
        const node = await undrain(db, nodeName(first, USAGE));
        return `${node.name}: takes new workspaces again.`;
      }
      case 'nodes remove': {
        const outcome = await removeNode(db, nodeName(first, USAGE), now);
        if (outcome.kind === 'refused') {
          throw new Refusal(
            `${outcome.node.name}: not removed, it holds ${outcome.moves.length} workspace(s) that are not terminated`,
            renderRemoval(outcome),
          );
        }
        return renderRemoval(outcome);
      }
      case 'nodes fail': {
        const { ops, woken } = replicaOps(database, now);
        const { node, failedOver } = await failNodeNow(ops, nodeName(first, USAGE));
        await woken();
        return `${node.name}: declared failed; ${failedOver} workspace(s) failed over to their standbys. Those without a standby holding a replica stay on it. It is back once it reports again.`;
      }
      case 'nodes evacuate': {
        const { ops, woken } = replicaOps(database, now);
        const result = await evacuate(ops, nodeName(first, USAGE));
        await woken();
        return [
          `${result.node.name}: drained; ${result.started.length} move(s) started (two at a time; the workers run them).`,
          ...result.started.map((move) => `  ${move.serviceId} → ${move.target}`),
          ...(result.stuck.length > 0 ? ['Not moved:'] : []),
          ...result.stuck.map((stuck) => `  ${stuck.serviceId}: ${stuck.reason}`),
        ].join('\n');
      }
      case 'services move': {
        const { ops, woken } = replicaOps(database, now);
        const moved = await moveService(ops, need(first, '<service-id>'), need(rest[0], '<node>'));
        await woken();
        return `${moved.id}: move to ${rest[0]} started (syncing); follow it with: npm run ops -- services show ${moved.id}`;
      }
      case 'nodes enroll':
        return (await enroll(createNodesQueries(db), first, rest[0], USAGE)).join('\n');
      case 'nodes revoke':
        return (await revoke(createNodesQueries(db), first, USAGE)).join('\n');
      case 'customers find': {
        const found = await findCustomers(db, need([first, ...rest].join(' ').trim(), '<text>'));
        return show(found, () => renderCustomers(found));
      }
      case 'customers suspend': {
        const why = reason ?? (rest.length > 0 ? rest.join(' ') : null);
        const suspended = await suspendCustomer(db, need(first, '<email|id>'), why);
        await wakeNodesOf(database, suspended.changed);
        return renderSuspension('suspended', suspended);
      }
      case 'customers unsuspend': {
        const reactivated = await unsuspendCustomer(db, need(first, '<email|id>'));
        await wakeNodesOf(database, reactivated.changed);
        return renderSuspension('reactivated', reactivated);
      }
      case 'services show': {
        const detail = await serviceDetail(db, need(first, '<service-id>'), now);
        return show(detail, () => renderService(detail));
      }
      case 'payments list': {
        const { account, payments } = await listPayments(db, need(first, '<email|id>'));
        return show({ account, payments }, () => renderPayments(account, payments));
      }
      case 'payments refund': {
        const sessionId = need(first, '<payment-session-id>');
        const amountMinor = amount === null ? null : parseAmount(amount);
        // The credit note's mail is a job: a worker sends it (on the embedded database, the next
        // `npm start`).
        const queue = await startQueue(database, { supervise: false });
        try {
          const outcome = await refund(
            db,
            configuredProvider(config, db),
            { sessionId, amountMinor, endService, reason, key },
            {
              creditNotePrefix: sellerFromConfig(config).creditNotePrefix,
              now: () => now,
              notify: creditNoteNotifier(db, queue, config.publicUrl),
            },
          );
          if (outcome.service?.ended && outcome.service.nodeId)
            await wakeNodesOf(database, [{ nodeId: outcome.service.nodeId }]);
          return show(outcome, () => renderRefund(outcome));
        } finally {
          await queue.stop();
        }
      }
      case 'secrets reseal': {
        const report = await resealSecrets(db, serverSecretOf(config));
        return show(report, () => renderReseal(report));
      }
      case 'jobs list':
      case 'jobs run': {
        // Not a supervisor: maintenance and the cron stay with the workers.
        const queue = await startQueue(database, { supervise: false });
        try {
          if (command === 'list') {
            const jobs = await listJobs(database, queue, now);
            return show(jobs, () => renderJobs(jobs));
          }
          const report = await runJob(
            {
              queue,
              workHere: (name) => workHere(configuredWorkerDeps(config, database, queue), name),
              // The embedded PGlite is this process's alone: no worker can be waiting to take it.
              workerGraceMs: database.kind === 'pglite' ? 0 : WORKER_GRACE_MS,
            },
            need(first, '<name>'),
          );
          const text = renderJobRun(report);
          if (report.kind === 'pending') throw new Refusal(text, '');
          if (report.job.state !== 'completed') throw new Refusal(text, '');
          return text;
        } finally {
          await queue.stop();
        }
      }
      default:
        if (area === 'catalogue') {
          const products = createProductsService({ queries: createProductsQueries(db) });
          return (await catalogueCommand(products, words.slice(1), USAGE)).join('\n');
        }
        throw new Error(USAGE);
    }
  } finally {
    await database.close();
  }
}

main(process.argv.slice(2)).then(
  (text) => {
    if (text) console.log(text);
  },
  (error: unknown) => {
    if (error instanceof Refusal && error.details) console.log(error.details);
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
