// Creating or changing a Samba share (spec §3 "Samba share"): name (on creation only: it is how
// clients and the node know the share), path, description, guest access, browseable, bind to
// the public IP, and who may use it: users of the service, each with read, write, execute and
// admin, and groups of the service (whose members read and write).
import {
  SHARE_PERMISSIONS,
  type CreateSambaShareRequest,
  type SambaShare,
  type WorkspaceGroup,
  type WorkspaceUser,
} from '@debesis/contract';
import { useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { CheckboxField } from '../../components/form/fields.tsx';
import type { ContractForm } from '../../forms/use-contract-form.ts';
import { sambaApi } from '../../workspace/samba-api.ts';
import { ResourceFormDialog, VERBATIM } from './kit/ResourceFormDialog.tsx';
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
    users: users.map((user) => {
      const entry = share?.users.find((candidate) => candidate.name === user.name);
      return entry
        ? { ...entry, allowed: true }
        : { name: user.name, allowed: false, ...DEFAULT_PERMISSIONS };
    }),
    groups: groups.map((group) => ({
      name: group.name,
      allowed: share?.groups.includes(group.name) ?? false,
    })),
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

/** The service's users, each ticked in with its four permissions. */
function ShareUsers({ form }: { form: ContractForm<typeof shareFormSchema> }) {
  const { t } = useTranslation(['sambaTab', 'workspace']);
  const userRows = useWatch({ control: form.control, name: 'users' });
  return (
    <fieldset className="fieldset share-access">
      <legend className="field__label">{t('samba.allowedUsers')}</legend>
      <p className="field__hint">{t('samba.allowedUsersHint')}</p>
      {userRows.length === 0 && <p className="text-muted">{t('samba.noUsers')}</p>}
      {userRows.map((user, index) => {
        const error = form.errorText(`users.${index}.read`);
        return (
          <div key={user.name} className="share-user" data-testid={`share-user-${user.name}`}>
            <CheckboxField
              id={`share-user-${user.name}`}
              label={user.name}
              data-testid={`share-user-${user.name}-allowed`}
              {...form.register(`users.${index}.allowed`)}
            />
            {user.allowed && (
              <div
                className="share-user__permissions"
                role="group"
                aria-label={t('samba.permissionsOf', { name: user.name })}
                aria-describedby={error ? `share-user-${user.name}-error` : undefined}
              >
                {SHARE_PERMISSIONS.map((permission) => (
                  <label key={permission} className="permission-toggle">
                    <input
                      type="checkbox"
                      className="checkbox"
                      data-testid={`share-user-${user.name}-${permission}`}
                      {...form.register(`users.${index}.${permission}`)}
                    />
                    {t(`samba.permission_${permission}`)}
                  </label>
                ))}
              </div>
            )}
            {error && (
              <p id={`share-user-${user.name}-error`} className="field__error">
                {error}
              </p>
            )}
          </div>
        );
      })}
    </fieldset>
  );
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
      fields={[
        creating && { kind: 'name', name: 'name', id: 'share-name', label: t('samba.name') },
        {
          kind: 'text',
          name: 'path',
          id: 'share-path',
          label: t('samba.path'),
          hint: t('samba.pathHint'),
          optional: creating,
          input: VERBATIM,
        },
        {
          kind: 'text',
          name: 'description',
          id: 'share-description',
          label: t('samba.description'),
          optional: true,
        },
        {
          kind: 'group',
          legend: t('samba.options'),
          className: 'share-options',
          fields: [
            {
              kind: 'checkbox',
              name: 'guest_ok',
              id: 'share-guest',
              label: t('samba.guestOk'),
              hint: t('samba.guestOkHint'),
            },
            {
              kind: 'checkbox',
              name: 'browseable',
              id: 'share-browseable',
              label: t('samba.browseable'),
              hint: t('samba.browseableHint'),
            },
            {
              kind: 'checkbox',
              name: 'bind_public_ip',
              id: 'share-public',
              label: t('samba.bindPublicIp'),
              hint: t('samba.bindPublicIpHint'),
            },
          ],
        },
        { kind: 'custom', key: 'users', render: (form) => <ShareUsers form={form} /> },
        {
          kind: 'group',
          legend: t('samba.allowedGroups'),
          className: 'share-access',
          fields: [
            {
              kind: 'custom',
              key: 'hint',
              render: () => <p className="field__hint">{t('samba.allowedGroupsHint')}</p>,
            },
            ...(groups.length === 0
              ? [
                  {
                    kind: 'custom' as const,
                    key: 'none',
                    render: () => <p className="text-muted">{t('samba.noGroups')}</p>,
                  },
                ]
              : []),
            ...groups.map((group, index) => ({
              kind: 'checkbox' as const,
              name: `groups.${index}.allowed` as const,
              id: `share-group-${group.name}`,
              label: group.name,
            })),
          ],
        },
      ]}
    />
  );
}
