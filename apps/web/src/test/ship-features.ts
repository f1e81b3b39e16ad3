// A tab of a feature not yet in SHIPPED_FEATURES is neither routed nor listed (service-tabs.ts).
// Its tests ship it for their own file only, with the contract otherwise as it is:
//
//   vi.mock('@debesis/contract', async (importOriginal) =>
//     (await import('../../test/ship-features.ts')).withShipped(await importOriginal(), ['vpn']),
//   );
import type { Feature } from '@debesis/contract';

export function withShipped<Contract extends { SHIPPED_FEATURES: readonly Feature[] }>(
  contract: Contract,
  features: readonly Feature[],
): Contract {
  return { ...contract, SHIPPED_FEATURES: [...contract.SHIPPED_FEATURES, ...features] };
}
