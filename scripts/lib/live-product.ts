// A product of its own for one benchmark, with what its clean-up needs whatever step the run got
// to: every workspace the run bought is terminated through the API the way a customer would, then
// anything of the product's still on the machine is found and removed by force, the product
// stopped, and what went wrong on the way warned about rather than hiding the run's figures.
import { findLeftovers, isClean, removeLeftovers } from './live-workspaces.ts';
import { LIVE_ADDRESS_POOL, startProduct, type RunningServer } from './processes.ts';
import { newCustomer, serviceAddresses, terminateWorkspace, type CustomerApi } from './workspace-api.ts';

export interface BenchProduct {
  product: RunningServer;
  /** A new verified customer, signed in; the workspaces it buys are terminated at the end. */
  signUp: () => Promise<CustomerApi>;
  /** Hears a bought workspace's id (buyWorkspace's onService), so the clean-up terminates it. */
  bought: (serviceId: string) => void;
}

export interface BenchProductOptions {
  /** The product's environment beyond startProduct's. */
  env?: Record<string, string>;
  /** Real workspaces (root): on by default. */
  liveWorkspaces?: boolean;
  /**
   * Remove only the networks of this run's workspaces: a run that may share the machine's pool
   * with another product must not take that one's routes.
   */
  ownAddressesOnly?: boolean;
}

export async function withBenchProduct<T>(
  options: BenchProductOptions,
  work: (bench: BenchProduct) => Promise<T>,
): Promise<T> {
  const product = await startProduct(options.env ?? {}, { liveWorkspaces: options.liveWorkspaces ?? true });
  const serviceIds = new Set<string>();
  let api: CustomerApi | undefined;
  try {
    return await work({
      product,
      signUp: async () => {
        api = (await newCustomer(product.url, product.dataDir)).api;
        return api;
      },
      bought: (serviceId) => serviceIds.add(serviceId),
    });
  } finally {
    const failures: string[] = [];
    const customer = api;
    const addresses =
      customer && options.ownAddressesOnly
        ? await serviceAddresses(customer, [...serviceIds]).catch(() => [] as string[])
        : undefined;
    if (customer)
      for (const id of serviceIds)
        await terminateWorkspace(customer, id).catch((error: unknown) => failures.push(String(error)));
    const left = findLeftovers(product.dataDir, LIVE_ADDRESS_POOL);
    if (addresses)
      left.addresses = left.addresses.filter((route) => addresses.includes(route.split(' dev ')[0] ?? ''));
    if (!isClean(left)) {
      failures.push(`left after removal, removed by force: ${JSON.stringify(left)}`);
      removeLeftovers(left);
    }
    await product.stop();
    for (const failure of failures) console.warn(`  clean-up: ${failure}`);
  }
}
