// A workspace's desired state for tests: an empty running workspace unless told otherwise, and
// users and shares built with readable defaults.
import {
  SAMBA_SERVER_DEFAULTS,
  WORKSPACE_ID_FIRST_BASE,
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
