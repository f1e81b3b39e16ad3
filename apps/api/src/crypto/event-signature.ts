// Signs and verifies events posted to someone else's URL the way Stripe signs webhooks: an
// HMAC-SHA256 over "<timestamp>.<body>", sent as `t=<timestamp>,v1=<hex>`, refused when older
// than 5 minutes. The sandbox payment provider's events and the monitoring webhooks use it.
import { createHmac, timingSafeEqual } from 'node:crypto';

const TOLERANCE_S = 300;

export function signEvent(secret: string, body: string, timestampS: number): string {
  const signature = createHmac('sha256', secret).update(`${timestampS}.${body}`).digest('hex');
  return `t=${timestampS},v1=${signature}`;
}

export function verifyEventSignature(
  secret: string,
  body: string,
  header: string | undefined,
  nowS: number,
): boolean {
  if (!header) return false;
  const parts = Object.fromEntries(header.split(',').map((part) => part.split('=', 2) as [string, string]));
  const timestamp = Number(parts.t);
  if (!Number.isInteger(timestamp) || Math.abs(nowS - timestamp) > TOLERANCE_S || !parts.v1) return false;
  const expected = Buffer.from(signEvent(secret, body, timestamp).split('v1=')[1] ?? '', 'hex');
  const given = Buffer.from(parts.v1, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
