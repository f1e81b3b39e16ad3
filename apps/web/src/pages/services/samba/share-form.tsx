// The create and edit form of a Samba share (spec §3 "Samba share"): name (on creation only: it
// is how clients and the node know the share), path, description, guest access, browseable, bind
// to the public IP, and who may use it: users of the service, each with read, write, execute and
// admin, and groups of the service (whose members read and write). A share not bound to the public
// IP answers only through the workspace's VPN; on a plan with a shared (NAT) address that is every
// share, so there the box is disabled and says why (the API refuses it: samba_public_ip_not_in_plan).
import {
  createSambaShareRequestSchema,
  sambaShareUserRequestSchema,
  SHARE_PERMISSIONS,
  type CreateSambaShareRequest,
  type SambaShare,
  type SharePermissions,
  type WorkspaceGroup,
  type WorkspaceUser,
} from '@debesis/contract';
import type { TFunction } from 'i18next';
import { sambaApi } from '../../../workspace/samba-api.ts';
import { accessRows, grantedRows, startValues, VERBATIM } from '../kit/form-fields.tsx';
import type { ResourceForm } from '../kit/ResourceCrud.tsx';
import { shareEditFormSchema, shareFormSchema, type ShareFormValues } from '../workspace-forms.ts';

// A new share starts from the contract's defaults, so the form offers what the API would do.
const NEW_USER_PERMISSIONS = sambaShareUserRequestSchema.omit({ name: true }).parse({});
const NEW_SHARE_OPTIONS = createSambaShareRequestSchema
  .pick({ description: true, guest_ok: true, browseable: true, bind_public_ip: true })
  .parse({});

function requestOf(values: ShareFormValues): Omit<CreateSambaShareRequest, 'name'> {
  const { name: _name, path, users, groups, ...options } = values;
  return {
    ...(path !== '' && { path }),
    ...options,
    users: grantedRows(users),
    groups: grantedRows(groups).map((group) => group.name),
  };
}

export function shareForm(
  serviceId: string,
  users: readonly WorkspaceUser[],
  groups: readonly WorkspaceGroup[],
  t: TFunction<['sambaTab', 'workspace']>,
  /** Whether the plan has an address of its own (the Samba status's public_address). */
  publicAddress: boolean,
): ResourceForm<SambaShare, typeof shareFormSchema | typeof shareEditFormSchema> {
  return {
    schema: (share) => (share ? shareEditFormSchema : shareFormSchema),
    values: (share) => ({
      ...startValues({ name: '', path: '', ...NEW_SHARE_OPTIONS }, share),
      users: accessRows(users, share?.users, NEW_USER_PERMISSIONS),
      groups: accessRows(groups, share?.groups, {}),
    }),
    save: (values, share) =>
      share
        ? sambaApi.updateShare(serviceId, share.name, requestOf(values))
        : sambaApi.createShare(serviceId, { name: values.name, ...requestOf(values) }),
    texts: {
      createTitle: t('samba.createTitle'),
      editTitle: (name) => t('samba.editTitle', { name }),
      create: t('samba.create'),
      createFailed: t('samba.createFailed'),
      updateFailed: t('samba.updateFailed'),
    },
    fields: (f, share) => [
      !share && f.name('name', 'share-name', t('samba.name')),
      f.text('path', 'share-path', t('samba.path'), {
        hint: t('samba.pathHint'),
        optional: !share,
        input: VERBATIM,
      }),
      f.text('description', 'share-description', t('samba.description'), { optional: true }),
      f.group(t('samba.options'), 'share-options', [
        f.checkbox('guest_ok', 'share-guest', t('samba.guestOk'), t('samba.guestOkHint')),
        f.checkbox('browseable', 'share-browseable', t('samba.browseable'), t('samba.browseableHint')),
        f.checkbox(
          'bind_public_ip',
          'share-public',
          t('samba.bindPublicIp'),
          publicAddress ? t('samba.bindPublicIpHint') : t('samba.bindPublicIpNat'),
          { disabled: !publicAddress },
        ),
      ]),
      f.access('users', 'share-user', {
        legend: t('samba.allowedUsers'),
        hint: t('samba.allowedUsersHint'),
        empty: t('samba.noUsers'),
        permissions: {
          keys: SHARE_PERMISSIONS,
          label: (permission) => t(`samba.permission_${permission as keyof SharePermissions}`),
          groupLabel: (name) => t('samba.permissionsOf', { name }),
        },
      }),
      f.access('groups', 'share-group', {
        legend: t('samba.allowedGroups'),
        hint: t('samba.allowedGroupsHint'),
        empty: t('samba.noGroups'),
      }),
    ],
  };
}
