// Creating or changing a Samba share (spec §3 "Samba share"): name (on creation only: it is how
// clients and the node know the share), path, description, guest access, browseable, bind to
// the public IP, and who may use it: users of the service, each with read, write, execute and
// admin, and groups of the service (whose members read and write).
import {
  SHARE_PERMISSIONS,
  type CreateSambaShareRequest,
  type SambaShare,
  type SharePermissions,
  type WorkspaceGroup,
  type WorkspaceUser,
} from '@debesis/contract';
import { useTranslation } from 'react-i18next';
import { sambaApi } from '../../workspace/samba-api.ts';
import { accessRows, ResourceFormDialog, VERBATIM } from './kit/ResourceFormDialog.tsx';
import { shareEditFormSchema, shareFormSchema, type ShareFormValues } from './workspace-forms.ts';

/** Read and write for a user ticked on a new share (as the contract's default). */
const DEFAULT_PERMISSIONS = { read: true, write: true, execute: false, admin: false };

function initialValues(
  share: SambaShare | null,
  users: readonly WorkspaceUser[],
  groups: readonly WorkspaceGroup[],
): ShareFormValues {
  return {
    name: share?.name ?? '',
    path: share?.path ?? '',
    description: share?.description ?? '',
    guest_ok: share?.guest_ok ?? false,
    browseable: share?.browseable ?? true,
    bind_public_ip: share?.bind_public_ip ?? false,
    users: accessRows(
      users.map((user) => user.name),
      (name) => share?.users.find((entry) => entry.name === name),
      DEFAULT_PERMISSIONS,
    ),
    groups: accessRows(
      groups.map((group) => group.name),
      (name) => (share?.groups.includes(name) ? {} : null),
      {},
    ),
  };
}

function requestOf(values: ShareFormValues): Omit<CreateSambaShareRequest, 'name'> {
  return {
    ...(values.path !== '' && { path: values.path }),
    description: values.description,
    guest_ok: values.guest_ok,
    browseable: values.browseable,
    bind_public_ip: values.bind_public_ip,
    users: values.users
      .filter((user) => user.allowed)
      .map(({ name, read, write, execute, admin }) => ({ name, read, write, execute, admin })),
    groups: values.groups.filter((group) => group.allowed).map((group) => group.name),
  };
}

export function ShareDialog({
  serviceId,
  share,
  users,
  groups,
  onClose,
}: {
  serviceId: string;
  /** null: a new share. */
  share: SambaShare | null;
  users: readonly WorkspaceUser[];
  groups: readonly WorkspaceGroup[];
  onClose: () => void;
}) {
  const { t } = useTranslation(['sambaTab', 'workspace']);
  const creating = share === null;
  return (
    <ResourceFormDialog
      title={creating ? t('samba.createTitle') : t('samba.editTitle', { name: share.name })}
      schema={creating ? shareFormSchema : shareEditFormSchema}
      defaultValues={initialValues(share, users, groups)}
      save={(values) =>
        creating
          ? sambaApi.createShare(serviceId, { name: values.name, ...requestOf(values) })
          : sambaApi.updateShare(serviceId, share.name, requestOf(values))
      }
      failure={creating ? t('samba.createFailed') : t('samba.updateFailed')}
      submitLabel={creating ? t('samba.create') : t('workspace:resource.save')}
      testIds={{ dialog: 'share-dialog', error: 'share-save-error', submit: 'share-submit' }}
      onClose={onClose}
      fields={(f) => [
        creating && f.name('name', 'share-name', t('samba.name')),
        f.text('path', 'share-path', t('samba.path'), {
          hint: t('samba.pathHint'),
          optional: creating,
          input: VERBATIM,
        }),
        f.text('description', 'share-description', t('samba.description'), { optional: true }),
        f.group(t('samba.options'), 'share-options', [
          f.checkbox('guest_ok', 'share-guest', t('samba.guestOk'), t('samba.guestOkHint')),
          f.checkbox('browseable', 'share-browseable', t('samba.browseable'), t('samba.browseableHint')),
          f.checkbox('bind_public_ip', 'share-public', t('samba.bindPublicIp'), t('samba.bindPublicIpHint')),
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
      ]}
    />
  );
}
