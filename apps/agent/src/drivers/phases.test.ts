import { describe, expect, it } from 'vitest';
import { DRIVER_PHASES, inPhaseOrder } from './phases.ts';
import { createDefaultDrivers } from './registry.ts';

describe('driver phases', () => {
  it('derive the registry order the agent has always run', () => {
    expect(createDefaultDrivers().map((driver) => driver.name)).toEqual([
      'workspace-dir',
      'storage',
      'network',
      'users',
      'samba',
      'vpn',
      'nfs',
      'ftp',
      'sftp',
      'ldap',
      'backup',
      'backup-clients',
    ]);
  });

  it('order by phase whatever the order given, keeping the given order within a phase', () => {
    const drivers = createDefaultDrivers().map((driver) => ({
      name: driver.name,
      phase: driver.phase ?? 'folder',
    }));
    expect(inPhaseOrder([...drivers].reverse()).map((d) => d.phase)).toEqual(
      [...drivers].map((d) => d.phase),
    );
    const daemons = drivers.filter((d) => d.phase === 'daemons');
    expect(inPhaseOrder([...daemons].reverse())).toEqual([...daemons].reverse());
  });

  it('put every registered driver in a named phase, the standby ones in the storage phases only', () => {
    const drivers = createDefaultDrivers();
    for (const driver of drivers) expect(DRIVER_PHASES).toContain(driver.phase);
    expect(drivers.filter((d) => d.standby).map((d) => d.phase)).toEqual(['folder', 'storage']);
    expect(
      drivers
        .filter((d) => d.kind === 'feature')
        .every((d) => d.phase === 'daemons' || d.phase === 'backups'),
    ).toBe(true);
  });
});
