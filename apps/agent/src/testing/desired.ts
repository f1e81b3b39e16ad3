// A workspace's desired state for tests: an empty running workspace unless told otherwise, and
// users and shares built with readable defaults.
import {
  SAMBA_SERVER_DEFAULTS,
  WORKSPACE_ID_FIRST_BASE,
  type FtpSectionState,
  type FtpUserState,
  type LdapSectionState,
  type SambaSectionState,
  type SambaShareState,
  type WorkspaceDesiredState,
  type WorkspaceUserState,
} from '@debesis/contract';
import { ntHash } from './nt-hash.ts';

/** A test's workspace uses Samba (its section is there to change). */
export type DesiredWithSamba = WorkspaceDesiredState & { samba: SambaSectionState };

export function desiredWorkspace(
  overrides: Partial<WorkspaceDesiredState> & Pick<WorkspaceDesiredState, 'service_id'>,
): DesiredWithSamba {
  return {
    generation: 1,
    state: 'running',
    address: '198.18.0.1',
    storage_bytes: 64 * 1024 * 1024,
    id_base: WORKSPACE_ID_FIRST_BASE,
    users: [],
    groups: [],
    ...overrides,
    samba: overrides.samba ?? { shares: [], settings: SAMBA_SERVER_DEFAULTS },
  };
}

/** A user whose password is `password` (NT hash computed here; the crypt hash is a stand-in). */
export function desiredUser(
  name: string,
  uid: number,
  options: { password?: string; active?: boolean; primary_gid?: number } = {},
): WorkspaceUserState {
  return {
    name,
    uid,
    active: options.active ?? true,
    password_crypt: `$6$testsalt$${name}`,
    password_nt: ntHash(options.password ?? `${name}-password`),
    primary_gid: options.primary_gid ?? WORKSPACE_ID_FIRST_BASE,
  };
}

export function desiredShare(name: string, overrides: Partial<SambaShareState> = {}): SambaShareState {
  return {
    name,
    path: `shares/${name}`,
    description: '',
    guest_ok: false,
    browseable: true,
    bind_public_ip: false,
    users: [],
    groups: [],
    ...overrides,
  };
}

export const perms = (read: boolean, write: boolean, execute = false, admin = false) => ({
  read,
  write,
  execute,
  admin,
});

/** FTP on its usual port, with room for a test's few clients: 20 passive ports, 10 clients. */
export function desiredFtp(users: FtpUserState[], overrides: Partial<FtpSectionState> = {}): FtpSectionState {
  return {
    enabled: true,
    port: 21,
    passive_port_min: 30000,
    passive_port_max: 30019,
    max_clients: 10,
    max_clients_per_user: 5,
    idle_timeout_minutes: 5,
    tls_required: false,
    users,
    ...overrides,
  };
}

/** LDAP on its usual ports, with no bind account, no anonymous reads and no alias. */
export function desiredLdap(overrides: Partial<LdapSectionState> = {}): LdapSectionState {
  return {
    enabled: true,
    port: 389,
    ldaps_port: 636,
    bind_password_crypt: null,
    anonymous_read: false,
    time_zone: 'Europe/Vilnius',
    users: [],
    alias: null,
    ...overrides,
  };
}
