// Signs and verifies sandbox events the way Stripe signs webhooks: an HMAC-SHA256 over
// "<timestamp>.<body>", sent as `t=<timestamp>,v1=<hex>`, refused when older than 5 minutes.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SANDBOX_SIGNATURE_HEADER = 'x-sandbox-signature';
const TOLERANCE_S = 300;

export function signSandboxEvent(secret: string, body: string, timestampS: number): string {
  const signature = createHmac('sha256', secret).update(`${timestampS}.${body}`).digest('hex');
  return `t=${timestampS},v1=${signature}`;
}

export function verifySandboxSignature(
  secret: string,
  body: string,
  header: string | undefined,
  nowS: number,
): boolean {
  if (!header) return false;
  const parts = Object.fromEntries(header.split(',').map((part) => part.split('=', 2) as [string, string]));
  const timestamp = Number(parts.t);
  if (!Number.isInteger(timestamp) || Math.abs(nowS - timestamp) > TOLERANCE_S || !parts.v1) return false;
  const expected = Buffer.from(signSandboxEvent(secret, body, timestamp).split('v1=')[1] ?? '', 'hex');
  const given = Buffer.from(parts.v1, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
