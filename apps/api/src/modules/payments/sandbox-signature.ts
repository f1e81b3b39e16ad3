// Sandbox events are signed the way Stripe signs webhooks (crypto/event-signature.ts), under this
// header.
export {
  signEvent as signSandboxEvent,
  verifyEventSignature as verifySandboxSignature,
} from '../../crypto/event-signature.ts';

export const SANDBOX_SIGNATURE_HEADER = 'x-sandbox-signature';
