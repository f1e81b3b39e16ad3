// The users feature's part of the node protocol (feature-node-part.ts): the workspace's users and
// groups as the node applies them (Unix accounts, Samba's passdb, every daemon's sign-ins).
import { z } from 'zod';
import { defineFeatureNodePart } from '../../feature-node-part.ts';
import { text } from '../../strings.ts';
import { WORKSPACE_NAME_PATTERN } from '../../workspace-names.ts';

export const workspaceUserStateSchema = z.object({
  name: text().regex(WORKSPACE_NAME_PATTERN),
  uid: z.number().int().positive(),
  /** An inactive user keeps files and memberships but cannot sign in anywhere. */
  active: z.boolean(),
  /** SHA-512 crypt(3) of the password ($6$…), for Unix sign-ins (SFTP, FTP, LDAP). */
  password_crypt: text().startsWith('$6$'),
  /** NT hash of the password (MD4 of UTF-16LE), upper-case hex, for Samba's passdb. */
  password_nt: text().regex(/^[0-9A-F]{32}$/),
  /** gid of the user's primary group: the group they are primary member of, else id_base. */
  primary_gid: z.number().int().positive(),
});
export type WorkspaceUserState = z.infer<typeof workspaceUserStateSchema>;

export const workspaceGroupStateSchema = z.object({
  name: text().regex(WORKSPACE_NAME_PATTERN),
  gid: z.number().int().positive(),
  /** Every member's name, primary or supplementary. */
  members: z.array(text().regex(WORKSPACE_NAME_PATTERN)),
});
export type WorkspaceGroupState = z.infer<typeof workspaceGroupStateSchema>;

export const usersNodePart = defineFeatureNodePart({
  feature: 'users',
  sections: {
    /** Users and groups (the directory); absent: none. */
    users: z.array(workspaceUserStateSchema).default([]),
    groups: z.array(workspaceGroupStateSchema).default([]),
  },
});
