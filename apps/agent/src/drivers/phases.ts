// The phases of a workspace's pass, by name and in the order they run for a workspace that runs
// or is stopped (a removal runs them last to first). Each driver says which phase it belongs to;
// the registry's order is derived from this list, so a new driver is placed by what it is, not
// by where a line is added.
//
//   folder    the workspace's folder, everything else lives in it
//   storage   its storage (the image, mounted in the folder); a standby's only other phase
//   network   its namespace with its address
//   accounts  its users and groups, with homes inside the storage
//   daemons   the features' daemons, each bound to the address, each on its own
//   backups   the backup jobs and the backup clients' server (which listens in the VPN's
//             tunnel): last, so a removal stops them before the repositories and storage go
export const DRIVER_PHASES = ['folder', 'storage', 'network', 'accounts', 'daemons', 'backups'] as const;
export type DriverPhase = (typeof DRIVER_PHASES)[number];

/** `drivers` by phase; within a phase, in the order given (a stable sort). */
export function inPhaseOrder<D extends { readonly phase: DriverPhase }>(drivers: readonly D[]): D[] {
  return drivers
    .map((driver, index) => ({ driver, index }))
    .sort(
      (a, b) =>
        DRIVER_PHASES.indexOf(a.driver.phase) - DRIVER_PHASES.indexOf(b.driver.phase) || a.index - b.index,
    )
    .map(({ driver }) => driver);
}
