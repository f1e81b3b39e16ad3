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
import { CheckboxField, InputField } from '../../components/form/fields.tsx';
import { useContractForm } from '../../forms/use-contract-form.ts';
import { sambaApi } from '../../workspace/samba-api.ts';
import { useWorkspaceMutation } from '../../workspace/workspace-resource.ts';
import { FormDialog, WorkspaceNameField } from './resource-parts.tsx';
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
  const form = useContractForm({
    schema: creating ? shareFormSchema : shareEditFormSchema,
    defaultValues: initialValues(share, users, groups),
  });
  const save = useWorkspaceMutation(
    (values: ShareFormValues) =>
      share === null
        ? sambaApi.createShare(serviceId, { name: values.name, ...requestOf(values) })
        : sambaApi.updateShare(serviceId, share.name, requestOf(values)),
    onClose,
  );
  const userRows = useWatch({ control: form.control, name: 'users' });

  return (
    <FormDialog
      title={creating ? t('samba.createTitle') : t('samba.editTitle', { name: share.name })}
      onClose={onClose}
      onSubmit={form.submitTo(save)}
      change={save}
      failure={creating ? t('samba.createFailed') : t('samba.updateFailed')}
      submitLabel={creating ? t('samba.create') : t('workspace:resource.save')}
      testIds={{ dialog: 'share-dialog', error: 'share-save-error', submit: 'share-submit' }}
    >
      {creating && (
        <WorkspaceNameField
          id="share-name"
          label={t('samba.name')}
          {...form.register('name')}
          error={form.formState.errors.name?.message}
        />
      )}
      <InputField
        id="share-path"
        label={t('samba.path')}
        hint={t('samba.pathHint')}
        optional={creating}
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        data-testid="share-path"
        {...form.field('path')}
      />
      <InputField
        id="share-description"
        label={t('samba.description')}
        optional
        data-testid="share-description"
        {...form.field('description')}
      />
      <fieldset className="fieldset share-options">
        <legend className="field__label">{t('samba.options')}</legend>
        <CheckboxField
          id="share-guest"
          label={t('samba.guestOk')}
          hint={t('samba.guestOkHint')}
          data-testid="share-guest"
          {...form.register('guest_ok')}
        />
        <CheckboxField
          id="share-browseable"
          label={t('samba.browseable')}
          hint={t('samba.browseableHint')}
          data-testid="share-browseable"
          {...form.register('browseable')}
        />
        <CheckboxField
          id="share-public"
          label={t('samba.bindPublicIp')}
          hint={t('samba.bindPublicIpHint')}
          data-testid="share-public"
          {...form.field('bind_public_ip')}
        />
      </fieldset>
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
      <fieldset className="fieldset share-access">
        <legend className="field__label">{t('samba.allowedGroups')}</legend>
        <p className="field__hint">{t('samba.allowedGroupsHint')}</p>
        {groups.length === 0 && <p className="text-muted">{t('samba.noGroups')}</p>}
        {groups.map((group, index) => (
          <CheckboxField
            key={group.name}
            id={`share-group-${group.name}`}
            label={group.name}
            data-testid={`share-group-${group.name}`}
            {...form.register(`groups.${index}.allowed`)}
          />
        ))}
      </fieldset>
    </FormDialog>
  );
}
