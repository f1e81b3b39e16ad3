// The rules of the workspace forms: the contract's (name, password, share path, description), so
// a form refuses what the server would, in the same words, plus what only a form has: the
// password confirmation ('Passwords do not match') and, for share users, that write, execute and
// admin need read. Messages are catalogue codes, translated by forms/messages.ts.
import {
  SHARE_PERMISSIONS,
  sharePathSchema,
  workspaceDescriptionSchema,
  workspaceNameSchema,
  workspacePasswordSchema,
  type SharePermissions,
} from '@debesis/contract';
import { z } from 'zod';

export function checkConfirmation(
  value: { password: string; confirm: string },
  context: z.RefinementCtx,
): void {
  if (value.password !== value.confirm) {
    context.addIssue({ code: 'custom', path: ['confirm'], message: 'passwords_do_not_match' });
  }
}

export const passwordFormSchema = z
  .object({ password: workspacePasswordSchema, confirm: z.string() })
  .superRefine(checkConfirmation);
export type PasswordFormValues = z.infer<typeof passwordFormSchema>;

export const userFormSchema = z
  .object({ name: workspaceNameSchema, password: workspacePasswordSchema, confirm: z.string() })
  .superRefine(checkConfirmation);
export type UserFormValues = z.infer<typeof userFormSchema>;

/** A new group, or a group being changed: it may take a new name (its gid, members and shares follow it). */
export const groupFormSchema = z.object({
  name: workspaceNameSchema,
  description: workspaceDescriptionSchema,
});
export type GroupFormValues = z.infer<typeof groupFormSchema>;

/** Write, execute and admin need read (the contract's share_permissions_need_read). */
export function permissionsValid(permissions: SharePermissions): boolean {
  return permissions.read || SHARE_PERMISSIONS.every((permission) => !permissions[permission]);
}

const permissionsSchema = z.object({
  read: z.boolean(),
  write: z.boolean(),
  execute: z.boolean(),
  admin: z.boolean(),
});

const shareUserRowSchema = permissionsSchema.extend({ name: z.string(), allowed: z.boolean() });

/** An empty path means the default, `shares/<name>`; anything else follows the contract's rule. */
const optionalSharePathSchema = z
  .string()
  .trim()
  .superRefine((path, context) => {
    if (path === '') return;
    const parsed = sharePathSchema.safeParse(path);
    if (!parsed.success) {
      context.addIssue({ code: 'custom', message: parsed.error.issues[0]?.message ?? 'share_path_invalid' });
    }
  });

const shareFieldsSchema = z.object({
  path: optionalSharePathSchema,
  description: workspaceDescriptionSchema,
  guest_ok: z.boolean(),
  browseable: z.boolean(),
  bind_public_ip: z.boolean(),
  groups: z.array(z.object({ name: z.string(), allowed: z.boolean() })),
  users: z.array(shareUserRowSchema),
});

function checkShare(value: z.infer<typeof shareFieldsSchema>, context: z.RefinementCtx): void {
  if (value.guest_ok && value.bind_public_ip) {
    context.addIssue({ code: 'custom', path: ['bind_public_ip'], message: 'samba_guest_share_public' });
  }
  value.users.forEach((user, index) => {
    if (user.allowed && !permissionsValid(user)) {
      context.addIssue({
        code: 'custom',
        path: ['users', index, 'read'],
        message: 'share_permissions_need_read',
      });
    }
  });
}

/**
 * A new share: its name too. `users` and `groups` list every user and group of the service,
 * `allowed` ticked for the share's.
 */
export const shareFormSchema = shareFieldsSchema
  .extend({ name: workspaceNameSchema })
  .superRefine(checkShare);
export type ShareFormValues = z.infer<typeof shareFormSchema>;

/** A share being changed keeps its name (it is how the node and clients know it). */
export const shareEditFormSchema = shareFieldsSchema.extend({ name: z.string() }).superRefine(checkShare);
