// Samba's part of the node protocol (feature-node-part.ts): the shares and server settings a
// workspace's smbd serves.
import { z } from 'zod';
import { defineFeatureNodePart } from '../../feature-node-part.ts';
import { text } from '../../strings.ts';
import { WORKSPACE_NAME_PATTERN } from '../../workspace-names.ts';

export const SHARE_PERMISSIONS = ['read', 'write', 'execute', 'admin'] as const;
export const sharePermissionsSchema = z.object({
  read: z.boolean(),
  write: z.boolean(),
  execute: z.boolean(),
  admin: z.boolean(),
});
export type SharePermissions = z.infer<typeof sharePermissionsSchema>;

export const sambaShareStateSchema = z.object({
  name: text().regex(WORKSPACE_NAME_PATTERN),
  /** Folder inside the workspace's storage, relative and without `..` (e.g. `shares/projects`). */
  path: text().regex(/^[a-z0-9_-]+(\/[a-z0-9_-]+)*$/i),
  description: text().max(200),
  guest_ok: z.boolean(),
  browseable: z.boolean(),
  /**
   * Serve it to anyone who reaches the workspace's address; off: to the workspace's VPN clients
   * and the node only. Always off for a plan without a public address of its own (NAT).
   */
  bind_public_ip: z.boolean(),
  /** Users allowed in, each with their own permissions. */
  users: z.array(z.object({ name: text().regex(WORKSPACE_NAME_PATTERN) }).merge(sharePermissionsSchema)),
  /** Groups allowed in: every member may read and write (per-user entries override). */
  groups: z.array(text().regex(WORKSPACE_NAME_PATTERN)),
});
export type SambaShareState = z.infer<typeof sambaShareStateSchema>;

/** The oldest protocol a workspace's smbd may speak (SMB1 is never offered: it is insecure). */
export const SAMBA_MIN_PROTOCOLS = ['SMB2', 'SMB3'] as const;

/** How the workspace's smbd presents itself (spec: Samba settings of the service). */
export const sambaServerSettingsStateSchema = z.object({
  workgroup: text().regex(/^[A-Z0-9_-]{1,15}$/),
  /** One line, no `%` (checked again by the agent before it writes smb.conf). */
  server_string: text().max(64),
  min_protocol: z.enum(SAMBA_MIN_PROTOCOLS),
});
export type SambaServerSettingsState = z.infer<typeof sambaServerSettingsStateSchema>;
export const SAMBA_SERVER_DEFAULTS: SambaServerSettingsState = {
  workgroup: 'WORKGROUP',
  server_string: 'Debesis',
  min_protocol: 'SMB2',
};

/** The Samba section of a workspace: its shares and its server settings. */
export const sambaSectionSchema = z.object({
  shares: z.array(sambaShareStateSchema),
  /** The workspace-wide server settings; an older API sends none and the defaults hold. */
  settings: sambaServerSettingsStateSchema.default(SAMBA_SERVER_DEFAULTS),
});
export type SambaSectionState = z.infer<typeof sambaSectionSchema>;
/** What a node takes an absent Samba section for: Samba not used, nothing shared. */
export const SAMBA_NOT_USED: SambaSectionState = { shares: [], settings: SAMBA_SERVER_DEFAULTS };

export const sambaNodePart = defineFeatureNodePart({
  feature: 'samba',
  sections: {
    /** Samba; absent: not used (see SAMBA_NOT_USED). */
    samba: sambaSectionSchema.optional(),
  },
});
