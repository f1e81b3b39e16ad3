// What the services module needs from the workspace features that fill a workspace (users and
// groups, Samba): their sections of the node's desired state and their counts for the overview.
// They are passed in, so the lifecycle does not depend on those modules; until a feature is
// wired in, its default answers "nothing configured".
import {
  SAMBA_SERVER_DEFAULTS,
  type WorkspaceDesiredState,
  type WorkspaceGroupState,
  type WorkspaceUserState,
} from '@debesis/contract';

export interface DirectoryProvider {
  /** The `users` and `groups` sections of the service's desired state. */
  desiredSection(
    serviceId: string,
    idBase: number,
  ): Promise<{ users: WorkspaceUserState[]; groups: WorkspaceGroupState[] }>;
  /** Per service: active users, all users and groups. Services without any may be missing. */
  counts(
    serviceIds: string[],
  ): Promise<Map<string, { users_active: number; users_total: number; groups: number }>>;
}

export interface SambaProvider {
  /** The `samba` section of the service's desired state. */
  desiredSection(serviceId: string): Promise<{ samba: WorkspaceDesiredState['samba'] }>;
  /** Per service: its shares. Services without any may be missing. */
  counts(serviceIds: string[]): Promise<Map<string, { shares: number }>>;
}

export const NO_DIRECTORY: DirectoryProvider = {
  desiredSection: () => Promise.resolve({ users: [], groups: [] }),
  counts: () => Promise.resolve(new Map()),
};

export const NO_SAMBA: SambaProvider = {
  desiredSection: () => Promise.resolve({ samba: { shares: [], settings: SAMBA_SERVER_DEFAULTS } }),
  counts: () => Promise.resolve(new Map()),
};
