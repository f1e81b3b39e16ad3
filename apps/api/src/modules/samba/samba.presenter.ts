// Samba shares as the owner sees them and as the node is told to serve them.
import {
  SAMBA_DEFAULT_SETTINGS,
  type SambaSettings,
  type SambaShare,
  type SambaShareState,
  type SambaShareUser,
} from '@debesis/contract';
import { resourceStatus, type ObservedWorkspace } from '../services/resource-status.ts';
import type {
  SambaSettingsRow,
  SambaShareGroupRow,
  SambaShareRow,
  SambaShareUserRow,
} from './samba.queries.ts';

/** One service's shares with their users and groups, and the names those ids have. */
export interface SambaSnapshot {
  shares: SambaShareRow[];
  users: SambaShareUserRow[];
  groups: SambaShareGroupRow[];
  names: { users: Map<string, string>; groups: Map<string, string> };
}

const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

export function shareUsers(snapshot: SambaSnapshot, shareId: string): SambaShareUser[] {
  return snapshot.users
    .filter((row) => row.shareId === shareId)
    .flatMap((row) => {
      const name = snapshot.names.users.get(row.userId);
      return name ? [{ name, read: row.read, write: row.write, execute: row.execute, admin: row.admin }] : [];
    })
    .sort(byName);
}

export function shareGroups(snapshot: SambaSnapshot, shareId: string): string[] {
  return snapshot.groups
    .filter((row) => row.shareId === shareId)
    .flatMap((row) => snapshot.names.groups.get(row.groupId) ?? [])
    .sort();
}

/** A share as the node applies it; the owner's view adds how far that got. */
function shareState(snapshot: SambaSnapshot, share: SambaShareRow): SambaShareState {
  return {
    name: share.name,
    path: share.path,
    description: share.description,
    guest_ok: share.guestOk,
    browseable: share.browseable,
    bind_public_ip: share.bindPublicIp,
    users: shareUsers(snapshot, share.id),
    groups: shareGroups(snapshot, share.id),
  };
}

export function presentShare(
  service: ObservedWorkspace,
  snapshot: SambaSnapshot,
  share: SambaShareRow,
): SambaShare {
  const { status, error } = resourceStatus(service, {
    kind: 'share',
    name: share.name,
    changedGeneration: share.changedGeneration,
  });
  return {
    ...shareState(snapshot, share),
    apply_status: status,
    apply_error: error,
    created_at: share.createdAt.toISOString(),
    updated_at: share.updatedAt.toISOString(),
  };
}

export function presentSettings(
  service: ObservedWorkspace,
  row: SambaSettingsRow | undefined,
): SambaSettings {
  if (!row) return { ...SAMBA_DEFAULT_SETTINGS, apply_status: 'applied', apply_error: null };
  return {
    workgroup: row.workgroup,
    server_string: row.serverString,
    min_protocol: row.minProtocol,
    apply_status: service.observedGeneration < row.changedGeneration ? 'applying' : 'applied',
    apply_error: null,
  };
}

export function desiredShares(snapshot: SambaSnapshot): SambaShareState[] {
  return snapshot.shares.map((share) => shareState(snapshot, share)).sort(byName);
}
