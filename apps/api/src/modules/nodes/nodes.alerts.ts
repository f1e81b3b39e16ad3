// The mail support receives when a node's identity changes hands or someone tries to make it:
// a node registered again (an operator reset it, or the embedded node lost its node.json) or the
// shared registration token was presented for a name that exists. Written for operators, in
// English. Nothing in it is a secret: names, host names, addresses and times.
import type { MailMessage } from '../../mail/mailer.ts';
import type { NodeRegistrationRow } from './nodes.queries.ts';

const HOUR_MS = 3_600_000;

export function nodeRegistrationAlert(row: NodeRegistrationRow, supportEmail: string): MailMessage {
  const refused = row.outcome === 'refused';
  const facts = [
    ['Node', row.nodeName],
    ['Host name it gave', row.hostname],
    ['From address', row.ip ?? 'unknown'],
    [
      'Credential',
      row.via === 'enrollment_token' ? 'one-time enrollment token' : 'shared NODE_REGISTRATION_TOKEN',
    ],
    ['At', row.createdAt.toISOString()],
  ];
  const lead = refused
    ? `Someone presented the shared registration token to take over the existing node "${row.nodeName}". ` +
      'It was refused and the node keeps its identity. Whoever sent it holds NODE_REGISTRATION_TOKEN: ' +
      'replace it, and check where it was deployed.'
    : `The node "${row.nodeName}" registered again with a one-time enrollment token: it has a new node ` +
      'token and its old one no longer works. If no operator reset this node, revoke it now ' +
      `(npm run nodes -- revoke ${row.nodeName}) and find out who held the token.`;
  return {
    // Refused attempts: at most one mail per node and hour, however many come.
    id: refused
      ? `node-refused-${row.nodeName}-${Math.floor(row.createdAt.getTime() / HOUR_MS)}`
      : `node-registered-${row.id}`,
    to: supportEmail,
    subject: refused
      ? `Storage node ${row.nodeName}: takeover attempt refused`
      : `Storage node ${row.nodeName} registered again`,
    text: [lead, facts.map(([label, value]) => `${label}: ${value}`).join('\n')].join('\n\n'),
  };
}
