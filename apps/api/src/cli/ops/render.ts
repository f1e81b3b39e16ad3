// The operator CLI's answers as plain aligned text (`--json` prints the data itself instead).
import type { PaymentSessionRow } from '../../modules/payments/payments.queries.ts';
import type { OperatorRefund } from '../../modules/payments/refund.ts';
import type { AccountSuspension } from '../../modules/services/operator-suspension.ts';
import type { AccountMatch } from '../../modules/users/users.queries.ts';
import type { JobState } from '../../jobs/queue.ts';
import type { CustomerSummary } from './customers.ts';
import { bytes, fields, money, table, time } from './format.ts';
import type { JobListing, RunReport } from './jobs.ts';
import type { NodeSummary, RemoveOutcome } from './nodes.ts';
import type { ResealReport } from './secrets.ts';
import type { ServiceDetail } from './services.ts';

export function renderNodes(nodes: readonly NodeSummary[]): string {
  if (nodes.length === 0) return 'no nodes registered';
  return table(
    [
      'NAME',
      'HOSTNAME',
      'STATE',
      'DRAINED',
      'DISK FREE',
      'DISK TOTAL',
      'ROOM',
      'ADDRESSES',
      'WORKSPACES',
      'STANDBYS',
    ],
    nodes.map((node) => [
      node.name,
      node.hostname,
      node.failedAt
        ? `failed (declared ${time(node.failedAt)})`
        : node.online
          ? 'online'
          : `offline (seen ${time(node.lastSeenAt)})`,
      node.drainedAt ? `since ${time(node.drainedAt)}` : 'no',
      bytes(node.diskFreeBytes),
      bytes(node.diskTotalBytes),
      `${node.roomGb} GB`,
      `${node.addressesFree}/${node.addressesTotal} free`,
      `${node.workspaces}${node.terminatedHeld ? ` (+${node.terminatedHeld} terminated)` : ''}`,
      String(node.standbys),
    ]),
    [4, 5, 6, 9],
  );
}

export function renderRemoval(outcome: RemoveOutcome): string {
  const { node } = outcome;
  if (outcome.kind === 'removed') {
    return [
      `${node.name}: removed; its token no longer works (its registration history is kept).`,
      ...(outcome.terminatedHeld
        ? [
            `${outcome.terminatedHeld} terminated workspace(s) it had not confirmed deleted may still have data on ${node.hostname}.`,
          ]
        : []),
    ].join('\n');
  }
  const lines = [
    `${node.name}: not removed, it holds ${outcome.moves.length} workspace(s) that are not terminated and ${outcome.standbys} standby cop${outcome.standbys === 1 ? 'y' : 'ies'}.`,
    ...(outcome.standbys > 0
      ? [
          `Its standbys are placed anew elsewhere by the workers once it is drained (npm run ops -- nodes drain ${node.name}), where another node can take them.`,
        ]
      : []),
    ...(outcome.moves.length > 0 ? ['Moving them would take (nothing has been moved):'] : []),
  ];
  for (const move of outcome.moves) {
    lines.push(
      '',
      fields([
        ['service', `${move.serviceId} "${move.name}" (${move.status}, account ${move.accountId})`],
        ['size', `${move.diskSpaceGb} GB, ${bytes(move.diskUsedBytes)} used`],
        ['address', move.address ?? '-'],
        [
          'target',
          move.target
            ? `${move.target.node}, address ${move.target.address}`
            : 'none: no other online, undrained node has room and a free address',
        ],
      ]),
      ...move.steps.map((step, index) => `  ${index + 1}. ${step}`),
    );
  }
  return lines.join('\n');
}

export function renderCustomers(customers: readonly CustomerSummary[]): string {
  if (customers.length === 0) return 'no matching account';
  return customers
    .map((customer) =>
      [
        fields([
          ['id', customer.id],
          ['email', customer.email],
          ['name', `${customer.firstName} ${customer.lastName}`],
          ['country', customer.country ?? '-'],
          ['created', time(customer.createdAt)],
        ]),
        customer.services.length === 0
          ? '  (no services)'
          : table(
              ['  SERVICE', 'NAME', 'STATUS'],
              customer.services.map((service) => [`  ${service.id}`, service.name, service.status]),
            ),
      ].join('\n'),
    )
    .join('\n\n');
}

export function renderSuspension(
  verb: 'suspended' | 'reactivated',
  result: { account: AccountMatch } & AccountSuspension,
): string {
  const lines = [
    `${result.account.email}: ${result.changed.length} service(s) ${verb}.`,
    ...result.changed.map((service) => `  ${service.id}  ${service.name}  now ${service.status}`),
  ];
  if (result.untouched.length > 0) {
    lines.push(
      verb === 'suspended'
        ? 'Left as they are (not active):'
        : 'Left as they are (not suspended by an operator):',
      ...result.untouched.map((service) => `  ${service.id}  ${service.name}  ${service.status}`),
    );
  }
  return lines.join('\n');
}

export function renderService(detail: ServiceDetail): string {
  const { service } = detail;
  const node = detail.node
    ? `${detail.node.name} (${detail.node.online ? 'online' : `offline, seen ${time(detail.node.lastSeenAt)}`})`
    : service.nodeId
      ? `${service.nodeId} (no such node any more)`
      : 'not placed';
  const head = fields([
    ['service', `${service.id} "${service.name}"`],
    ['account', service.accountId],
    ['node', node],
    ['address', service.address ?? '-'],
    [
      'standby',
      detail.standby
        ? `${detail.standby.name} (${detail.standby.online ? 'online' : 'offline'}), last in sync ${detail.standby.lastInSyncAt ? `${time(detail.standby.lastInSyncAt)} (${detail.standby.replica ?? '-'})` : 'never: first copy under way'}`
        : 'none',
    ],
    [
      'move',
      detail.move
        ? `to ${detail.move.target}: ${detail.move.phase}${detail.move.stoppedAt ? `, stopped ${time(detail.move.stoppedAt)}` : ''}`
        : 'none',
    ],
    ['valid until', time(service.validUntil)],
  ]);
  const sideBySide = table(
    ['', 'DESIRED', 'OBSERVED'],
    [
      [
        'status',
        `${service.status}, ${service.runState}: node should have it ${detail.desiredState}`,
        service.startedAt
          ? `started ${time(service.startedAt)}${service.notServing ? ', a daemon not serving' : ''}`
          : 'nothing running',
      ],
      ['generation', String(service.generation), String(service.observedGeneration)],
      ['apply', detail.applyStatus, `reported ${time(service.reportedAt)}`],
      [
        'disk',
        bytes(detail.diskSizeBytes),
        `${bytes(service.storageBytes)} size, ${bytes(service.diskUsedBytes)} used`,
      ],
      ['last error', '', service.lastError ?? '-'],
    ],
  );
  const drivers =
    detail.drivers.length === 0
      ? 'features: none reported'
      : table(
          ['FEATURE', 'LIVE', 'SERVING', 'NOTE'],
          detail.drivers.map((driver) => [
            driver.driver,
            driver.live ? 'live' : 'not live',
            driver.serving === undefined ? '-' : driver.serving ? 'yes' : 'no',
            driver.reason ?? '',
          ]),
        );
  const failures =
    detail.failures.length === 0
      ? []
      : [
          table(
            ['FAILED', 'NAME', 'ERROR'],
            detail.failures.map((failure) => [failure.kind, failure.name, failure.error]),
          ),
        ];
  return [head, '', sideBySide, '', drivers, ...failures].join('\n');
}

export function renderPayments(account: AccountMatch, payments: readonly PaymentSessionRow[]): string {
  if (payments.length === 0) return `${account.email}: no payments`;
  return table(
    ['PAYMENT', 'ORDER', 'AMOUNT', 'STATE', 'REFUND', 'PROVIDER', 'CREATED'],
    payments.map((payment) => [
      payment.id,
      payment.orderId,
      money(payment.amountMinor, payment.currency),
      payment.status,
      payment.refundStatus
        ? `${payment.refundStatus}${payment.refundedAt ? ` ${time(payment.refundedAt)}` : ''}`
        : '-',
      payment.provider,
      time(payment.createdAt),
    ]),
    [2],
  );
}

export function renderRefund(outcome: OperatorRefund): string {
  const { session } = outcome;
  const documents = outcome.invoice
    ? ` Invoice ${outcome.invoice.number}: ${money(outcome.credited ?? 0, session.currency)} of ${money(outcome.invoice.total, session.currency)} credited${
        outcome.creditNote ? `; credit note ${outcome.creditNote.number}` : ''
      }.`
    : '';
  const service = !outcome.service
    ? outcome.kind === 'refunded'
      ? ' The order and its service are unchanged.'
      : ''
    : outcome.service.ended
      ? ` Service ${outcome.service.serviceId} ended (cancelled: access off now, data deleted after the retention days).`
      : ` Service ${outcome.service.serviceId} not ended: it is ${outcome.service.status ?? 'gone'}.`;
  if (outcome.kind === 'refunded') {
    const mail = outcome.mailed
      ? ' The credit note is mailed to the customer.'
      : outcome.mailError
        ? ` The credit note was not mailed (${outcome.mailError}); the customer finds it under Billing.`
        : '';
    return `${session.id}: ${money(outcome.amountMinor, session.currency)} refunded through ${session.provider} (refund ${outcome.reference}).${documents}${service}${mail}`;
  }
  const what = outcome.amountMinor !== null ? ` ${money(outcome.amountMinor, session.currency)}` : '';
  const reference = session.refundReference ?? (outcome.creditNote ? null : 'no reference');
  return `${session.id}: already refunded${what}${reference ? ` (${reference}${session.refundedAt ? `, ${time(session.refundedAt)}` : ''})` : ''}; nothing new was refunded.${documents}${service}`;
}

export function renderJobs(jobs: readonly JobListing[]): string {
  return table(
    ['NAME', 'CRON (UTC)', 'EVERY', 'REGISTERED', 'LAST RUN', 'STARTED', 'COMPLETED', 'NEXT RUN'],
    jobs.map((job) => [
      job.name,
      job.cron,
      job.every ?? '-',
      // No: no worker has started since the schedule was added, so nothing runs it on its own.
      job.registered ? 'yes' : 'no',
      job.lastRun?.state ?? 'never',
      time(job.lastRun?.startedOn),
      time(job.lastRun?.completedOn),
      time(job.nextRun),
    ]),
  );
}

/** What the handler threw, as pg-boss kept it. */
function jobError(job: JobState): string {
  const output = job.output as { message?: unknown } | null;
  return output && typeof output.message === 'string' ? `: ${output.message}` : '';
}

export function renderJobRun(report: RunReport): string {
  const { name, job } = report;
  if (report.kind === 'pending') {
    // A job waiting for its retry runs at the retry's time, not now: that is said too.
    const stands = job.state === 'retry' ? 'waiting to be retried after a failure' : `already ${job.state}`;
    // A run queued after the ask may have ended already: it answered both asks all the same.
    const once = job.completedOn ? 'it ran once for both' : 'it runs once for both';
    return `${name}: not started again, job ${job.id} is ${stands} (queued ${time(job.createdOn)}); ${once}.`;
  }
  const where = report.by === 'worker' ? 'a worker' : 'this process (no worker took it)';
  switch (job.state) {
    case 'completed':
      return `${name}: ran in ${where}, job ${job.id}, completed ${time(job.completedOn)}.`;
    case 'retry':
      return `${name}: failed in ${where}${jobError(job)}; job ${job.id} is retried by the workers as a scheduled one would be.`;
    case 'failed':
      return `${name}: failed in ${where}${jobError(job)} (job ${job.id}, no retries left).`;
    default:
      return `${name}: job ${job.id} is ${job.state} in ${where}; \`ops jobs list\` shows how it ends.`;
  }
}

export function renderReseal({ columns: counts, staleBackupCodes }: ResealReport): string {
  const lines = [
    table(
      ['COLUMN', 'RESEALED', 'ALREADY CURRENT', 'UNREADABLE'],
      counts.map((count) => [
        count.column,
        String(count.resealed),
        String(count.current),
        String(count.unreadable),
      ]),
      [1, 2, 3],
    ),
  ];
  const unreadable = counts.reduce((sum, count) => sum + count.unreadable, 0);
  if (unreadable > 0)
    lines.push(
      `${unreadable} value(s) open under no configured secret and were left as they were ` +
        '(sealed under a secret that is not in JWT_SECRET_PREVIOUS; they stay unreadable without it).',
    );
  if (staleBackupCodes.codes > 0)
    lines.push(
      `${staleBackupCodes.codes} unused backup code(s) of ${staleBackupCodes.subusers} subuser(s) were made ` +
        'under a previous secret and stop working when it is removed (their TOTP keeps working): ' +
        "their owners make new ones under the subuser's two-step verification.",
    );
  lines.push(
    unreadable === 0 && staleBackupCodes.codes === 0
      ? 'Everything sealed is under JWT_SECRET now: JWT_SECRET_PREVIOUS can be removed.'
      : 'Everything readable is sealed under JWT_SECRET now.',
  );
  return lines.join('\n');
}
