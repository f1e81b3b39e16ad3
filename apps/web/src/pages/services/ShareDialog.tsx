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
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { CheckboxField, InputField } from '../../components/form/fields.tsx';
import { fieldErrorText, formErrorMap } from '../../forms/messages.ts';
import { sambaApi } from '../../workspace/samba-api.ts';
import { submitChange, useWorkspaceMutation } from '../../workspace/workspace-resource.ts';
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
  const { t: tApp } = useTranslation();
  const creating = share === null;
  const {
    register,
    handleSubmit,
    setError,
    control,
    formState: { errors },
  } = useForm<ShareFormValues>({
    resolver: zodResolver(creating ? shareFormSchema : shareEditFormSchema, { error: formErrorMap }),
    defaultValues: initialValues(share, users, groups),
  });
  const save = useWorkspaceMutation(
    (values: ShareFormValues) =>
      share === null
        ? sambaApi.createShare(serviceId, { name: values.name, ...requestOf(values) })
        : sambaApi.updateShare(serviceId, share.name, requestOf(values)),
    onClose,
  );
  const userRows = useWatch({ control, name: 'users' });
  const failure = creating ? t('samba.createFailed') : t('samba.updateFailed');
  const fieldError = (message: string | undefined) => fieldErrorText(tApp, message);

  return (
    <FormDialog
      title={creating ? t('samba.createTitle') : t('samba.editTitle', { name: share.name })}
      onClose={onClose}
      onSubmit={submitChange({ handleSubmit, setError }, save, [
        'name',
        'path',
        'description',
        'bind_public_ip',
      ])}
      change={save}
      failure={failure}
      submitLabel={creating ? t('samba.create') : t('workspace:resource.save')}
      testIds={{ dialog: 'share-dialog', error: 'share-save-error', submit: 'share-submit' }}
    >
      {creating && (
        <WorkspaceNameField
          id="share-name"
          label={t('samba.name')}
          error={errors.name?.message}
          {...register('name')}
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
        error={fieldError(errors.path?.message)}
        data-testid="share-path"
        {...register('path')}
      />
      <InputField
        id="share-description"
        label={t('samba.description')}
        optional
        error={fieldError(errors.description?.message)}
        data-testid="share-description"
        {...register('description')}
      />
      <fieldset className="fieldset share-options">
        <legend className="field__label">{t('samba.options')}</legend>
        <CheckboxField
          id="share-guest"
          label={t('samba.guestOk')}
          hint={t('samba.guestOkHint')}
          data-testid="share-guest"
          {...register('guest_ok')}
        />
        <CheckboxField
          id="share-browseable"
          label={t('samba.browseable')}
          hint={t('samba.browseableHint')}
          data-testid="share-browseable"
          {...register('browseable')}
        />
        <CheckboxField
          id="share-public"
          label={t('samba.bindPublicIp')}
          hint={t('samba.bindPublicIpHint')}
          error={fieldError(errors.bind_public_ip?.message)}
          data-testid="share-public"
          {...register('bind_public_ip')}
        />
      </fieldset>
      <fieldset className="fieldset share-access">
        <legend className="field__label">{t('samba.allowedUsers')}</legend>
        <p className="field__hint">{t('samba.allowedUsersHint')}</p>
        {userRows.length === 0 && <p className="text-muted">{t('samba.noUsers')}</p>}
        {userRows.map((user, index) => {
          const error = fieldError(errors.users?.[index]?.read?.message);
          return (
            <div key={user.name} className="share-user" data-testid={`share-user-${user.name}`}>
              <CheckboxField
                id={`share-user-${user.name}`}
                label={user.name}
                data-testid={`share-user-${user.name}-allowed`}
                {...register(`users.${index}.allowed`)}
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
                        {...register(`users.${index}.${permission}`)}
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
            {...register(`groups.${index}.allowed`)}
          />
        ))}
      </fieldset>
    </FormDialog>
  );
}
