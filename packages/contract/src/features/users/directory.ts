// Service users and groups (service-management §3 "Service user" and "Group", §5, §7 "Users and
// groups"). Base /api/v1/user-groups/{serviceId}:
//   GET, POST users                      list / create (201)
//   PATCH, DELETE users/{user}           change active, password, groups / delete (204)
//   PATCH users/{user}/password          set the password
//   PATCH users/{user}/activate|deactivate
//   GET users/{user}/groups              the user's groups, primary marked
//   GET, POST groups; PATCH, DELETE groups/{group}; GET groups/{group}/members
//   POST, DELETE groups/{group}/members/{user}?primary=true|false
//   POST sync                            send the whole state to the node again
//
// Names become Unix and Samba names on the node (see WORKSPACE_NAME_PATTERN): they are refused,
// not silently changed, when they hold upper-case letters, so what the owner typed is what signs
// in. A user and a group may share a name, as on Unix. A user's name cannot be changed afterwards
// (it is their sign-in everywhere and names their home); a group's can (PATCH groups/{group} with
// `name`): on the node a group is its gid, which stays, so files, members and the shares that
// list it follow the new name at the next apply.
import { z } from 'zod';
import { text } from '../../strings.ts';
import { PASSWORD_MIN_LENGTH } from '../../constants.ts';
import { RESERVED_WORKSPACE_NAMES, RESOURCE_APPLY_STATUSES } from '../../nodes.ts';

const RESERVED = new Set<string>(RESERVED_WORKSPACE_NAMES);

/** Groups a service may hold (users are limited by the plan): far inside the id block. */
export const WORKSPACE_GROUPS_MAX = 1000;

/**
 * A string whose absence reads "required". (A plain `{ error: 'required' }` would also become
 * the message of every later rule, hiding e.g. the length limit.)
 */
const requiredString = () =>
  text({
    error: (issue) =>
      issue.code === 'invalid_type' ? (issue.input === undefined ? 'required' : 'invalid_type') : undefined,
  });

/** A new user, group or share name: the node contract's rules, each with its own message. */
export const workspaceNameSchema = requiredString()
  .trim()
  .min(1, 'required')
  .max(32)
  .regex(/^[A-Za-z0-9_-]*$/, 'workspace_name_characters')
  .regex(/^[^A-Z]*$/, 'workspace_name_lowercase')
  .regex(/^[A-Za-z]/, 'workspace_name_start')
  .refine((name) => !RESERVED.has(name), 'workspace_name_reserved');

/** A reference to an existing user or group: whether it exists is the service's answer. */
export const workspaceNameRefSchema = requiredString().trim().min(1, 'required').max(64);

/** Service users' passwords (spec §5): at least 8 characters; no other rule is the spec's. */
export const workspacePasswordSchema = requiredString()
  .min(1, 'required')
  .min(PASSWORD_MIN_LENGTH, 'password_too_short')
  .max(128, 'password_too_long');

export const workspaceDescriptionSchema = text().trim().max(200);

const nameList = z.array(workspaceNameRefSchema).max(1000);

/** Whether the node has applied the latest change of a resource (see the API's resourceStatus). */
export const applyStatusFields = {
  apply_status: z.enum(RESOURCE_APPLY_STATUSES),
  /** The node's reason when apply_status is failed. */
  apply_error: text().nullable(),
};

/** The tail of every workspace resource the owner lists: its apply status, then when it was made and changed. */
export const workspaceResourceFields = {
  ...applyStatusFields,
  created_at: text(),
  updated_at: text(),
};

export const workspaceServiceParamsSchema = z.object({
  serviceId: z.uuid({ error: 'invalid_format' }),
});
export const workspaceUserParamsSchema = workspaceServiceParamsSchema.extend({
  user: text().min(1).max(200),
});
export const workspaceGroupParamsSchema = workspaceServiceParamsSchema.extend({
  group: text().min(1).max(200),
});
export const workspaceGroupMemberParamsSchema = workspaceGroupParamsSchema.extend({
  user: text().min(1).max(200),
});

export const createWorkspaceUserRequestSchema = z.object({
  name: workspaceNameSchema,
  password: workspacePasswordSchema,
  active: z.boolean().default(true),
  /** Groups to join (supplementary unless named as primary_group). */
  groups: nameList.default([]),
  /** The group whose gid becomes the user's primary gid; none: the workspace's `users` group. */
  primary_group: workspaceNameRefSchema.nullable().default(null),
});
export type CreateWorkspaceUserRequest = z.input<typeof createWorkspaceUserRequestSchema>;

/** Every field optional; a name is not one of them (see the top comment). */
export const updateWorkspaceUserRequestSchema = z.strictObject({
  active: z.boolean().optional(),
  password: workspacePasswordSchema.optional(),
  /** The complete set of groups the user belongs to afterwards (primary_group included). */
  groups: nameList.optional(),
  primary_group: workspaceNameRefSchema.nullable().optional(),
});
export type UpdateWorkspaceUserRequest = z.input<typeof updateWorkspaceUserRequestSchema>;

export const workspaceUserPasswordRequestSchema = z.object({ password: workspacePasswordSchema });
export type WorkspaceUserPasswordRequest = z.input<typeof workspaceUserPasswordRequestSchema>;

export const workspaceUserSchema = z.object({
  /** The user's id, which monitoring's users/{userId} routes take (routes here name users by name). */
  id: z.uuid(),
  name: text(),
  /** Unix uid on the node; null until the service is placed on one. */
  uid: z.number().int().nullable(),
  active: z.boolean(),
  /** The group the user is primary member of; null: the workspace's default group `users`. */
  primary_group: text().nullable(),
  /** Every group the user belongs to, primary included, by name. */
  groups: z.array(text()),
  ...workspaceResourceFields,
});
export type WorkspaceUser = z.infer<typeof workspaceUserSchema>;

export const workspaceUsersResponseSchema = z.object({
  users: z.array(workspaceUserSchema),
  /** How many active users the service's plan allows (inactive users do not count). */
  limit: z.number().int(),
});
export type WorkspaceUsersResponse = z.infer<typeof workspaceUsersResponseSchema>;

export const workspaceUserGroupsResponseSchema = z.object({
  groups: z.array(z.object({ name: text(), gid: z.number().int().nullable(), primary: z.boolean() })),
});
export type WorkspaceUserGroupsResponse = z.infer<typeof workspaceUserGroupsResponseSchema>;

export const createWorkspaceGroupRequestSchema = z.object({
  name: workspaceNameSchema,
  description: workspaceDescriptionSchema.default(''),
  /** Users to add as supplementary members. */
  members: nameList.default([]),
});
export type CreateWorkspaceGroupRequest = z.input<typeof createWorkspaceGroupRequestSchema>;

export const updateWorkspaceGroupRequestSchema = z.strictObject({
  /** A new name, under the rules of a new group's; one another group holds is a field error. */
  name: workspaceNameSchema.optional(),
  description: workspaceDescriptionSchema.optional(),
  /** The complete set of members afterwards; members who stay keep their primary flag. */
  members: nameList.optional(),
});
export type UpdateWorkspaceGroupRequest = z.input<typeof updateWorkspaceGroupRequestSchema>;

export const workspaceGroupMemberSchema = z.object({
  name: text(),
  /** Primary member: the group is the user's primary group (at most one per user). */
  primary: z.boolean(),
  active: z.boolean(),
});
export type WorkspaceGroupMember = z.infer<typeof workspaceGroupMemberSchema>;

export const workspaceGroupSchema = z.object({
  name: text(),
  description: text(),
  /** Unix gid on the node; null until the service is placed on one. */
  gid: z.number().int().nullable(),
  members: z.array(workspaceGroupMemberSchema),
  ...workspaceResourceFields,
});
export type WorkspaceGroup = z.infer<typeof workspaceGroupSchema>;

export const workspaceGroupsResponseSchema = z.object({ groups: z.array(workspaceGroupSchema) });
export type WorkspaceGroupsResponse = z.infer<typeof workspaceGroupsResponseSchema>;

export const workspaceGroupMembersResponseSchema = z.object({
  members: z.array(workspaceGroupMemberSchema),
});
export type WorkspaceGroupMembersResponse = z.infer<typeof workspaceGroupMembersResponseSchema>;

/**
 * `primary` (spec §5: default false). On POST: add the user as primary member (moving their
 * primary group here from any other group, where they stay a supplementary member) or as a
 * supplementary one. On DELETE: true takes only the primary role away (the user stays a
 * supplementary member); false removes the user from the group.
 */
export const workspaceGroupMemberQuerySchema = z.object({
  primary: z
    .enum(['true', 'false'], { error: 'invalid_value' })
    .default('false')
    .transform((value) => value === 'true'),
});

/** The answer to a call that only sends the desired state again (sync, reload). */
export const workspaceApplyResponseSchema = z.object({
  /** The desired-state generation the node is asked to reach. */
  generation: z.number().int(),
});
export type WorkspaceApplyResponse = z.infer<typeof workspaceApplyResponseSchema>;
