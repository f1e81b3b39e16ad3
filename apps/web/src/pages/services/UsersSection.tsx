// The service's users (spec §3 "Service user", §4 "Users can be activated and deactivated"):
// list with state, groups and apply status; create with username, password and confirmation;
// change a password; activate or deactivate; see and change a user's groups; delete after
// confirming. Up to the number of users the plan allows.
import type { WorkspaceGroup, WorkspaceUser, WorkspaceUsersResponse } from '@debesis/contract';
import type { TFunction } from 'i18next';
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { useState } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../components/dialog/Dialog.tsx';
import { InputField } from '../../components/form/fields.tsx';
import { fieldErrorText } from '../../forms/messages.ts';
import { useContractForm } from '../../forms/use-contract-form.ts';
import { directoryApi } from '../../workspace/directory-api.ts';
import { workspaceKeys } from '../../workspace/workspace-keys.ts';
import { useUrlList } from '../../workspace/url-list.ts';
import { useWorkspaceMutation } from '../../workspace/workspace-resource.ts';
import { MembershipEditor, type MembershipChange } from './MembershipEditor.tsx';
import {
  DeleteDialog,
  FormDialog,
  OperationError,
  ResourceRow,
  ResourceSection,
  RowAction,
  WorkspaceNameField,
} from './resource-parts.tsx';
import {
  passwordFormSchema,
  userFormSchema,
  type PasswordFormValues,
  type UserFormValues,
} from './workspace-forms.ts';

type UserDialog =
  | { kind: 'create' }
  | { kind: 'password'; user: string }
  | { kind: 'groups'; user: string }
  | { kind: 'delete'; user: string };

export function UsersSection({
  serviceId,
  users,
  groups,
}: {
  serviceId: string;
  users: UseQueryResult<WorkspaceUsersResponse>;
  groups: readonly WorkspaceGroup[];
}) {
  const { t } = useTranslation(['usersTab', 'workspace']);
  const [dialog, setDialog] = useState<UserDialog | null>(null);
  const toggle = useWorkspaceMutation((user: WorkspaceUser) =>
    directoryApi.setActive(serviceId, user.name, !user.active),
  );
  const list = users.data?.users ?? [];
  const listPage = useUrlList(list, (user) => user.name);
  const limit = users.data?.limit ?? null;
  // The plan limits the active users; inactive ones cannot sign in and do not count.
  const active = list.filter((user) => user.active).length;
  const full = limit !== null && active >= limit;
  const close = () => setDialog(null);

  return (
    <>
      <ResourceSection
        title={t('workspaceUsers.title')}
        lead={t('workspaceUsers.lead')}
        counter={limit === null ? undefined : t('workspaceUsers.counter', { count: active, limit })}
        addLabel={t('workspaceUsers.add')}
        onAdd={() => setDialog({ kind: 'create' })}
        addDisabled={!users.isSuccess || full}
        notice={
          <>
            {full && (
              <p className="text-muted" data-testid="workspace-users-full">
                {t('workspaceUsers.full', { count: limit })}
              </p>
            )}
            {toggle.isError && (
              <OperationError
                error={toggle.error}
                failure={
                  toggle.variables.active
                    ? t('workspaceUsers.deactivateFailed')
                    : t('workspaceUsers.activateFailed')
                }
                testId="workspace-users-toggle-error"
              />
            )}
          </>
        }
        load={users}
        loadFailed={t('workspaceUsers.loadFailed')}
        emptyText={t('workspaceUsers.empty')}
        statuses={list.map((user) => user.apply_status)}
        list={listPage}
        testId="workspace-users"
      >
        {listPage.shown.map((user) => (
          <ResourceRow
            key={user.name}
            name={user.name}
            testId={`user-${user.name}`}
            status={user.apply_status}
            applyError={user.apply_error}
            badges={
              <span
                className={`badge ${user.active ? 'badge--success' : 'badge--warning'}`}
                data-testid={`user-${user.name}-state`}
              >
                {user.active ? t('workspaceUsers.active') : t('workspaceUsers.inactive')}
              </span>
            }
            details={
              <p className="text-muted" data-testid={`user-${user.name}-groups`}>
                {user.groups.length === 0
                  ? t('workspaceUsers.noGroups')
                  : t('workspaceUsers.groups', {
                      groups: user.groups
                        .map((group) =>
                          group === user.primary_group ? t('workspaceUsers.primaryGroup', { group }) : group,
                        )
                        .join(', '),
                    })}
              </p>
            }
            actions={
              <>
                <RowAction
                  label={t('workspaceUsers.changePassword')}
                  target={user.name}
                  onClick={() => setDialog({ kind: 'password', user: user.name })}
                  testId={`user-${user.name}-password`}
                />
                <RowAction
                  label={user.active ? t('workspaceUsers.deactivate') : t('workspaceUsers.activate')}
                  target={user.name}
                  disabled={toggle.isPending}
                  onClick={() => toggle.mutate(user)}
                  testId={`user-${user.name}-toggle`}
                />
                <RowAction
                  label={t('workspaceUsers.manageGroups')}
                  target={user.name}
                  onClick={() => setDialog({ kind: 'groups', user: user.name })}
                  testId={`user-${user.name}-groups-open`}
                />
                <RowAction
                  label={t('workspace:resource.delete')}
                  target={user.name}
                  danger
                  onClick={() => setDialog({ kind: 'delete', user: user.name })}
                  testId={`user-${user.name}-delete`}
                />
              </>
            }
          />
        ))}
      </ResourceSection>
      {dialog?.kind === 'create' && <CreateUserDialog serviceId={serviceId} onClose={close} />}
      {dialog?.kind === 'password' && (
        <PasswordDialog serviceId={serviceId} user={dialog.user} onClose={close} />
      )}
      {dialog?.kind === 'groups' && (
        <UserGroupsDialog serviceId={serviceId} user={dialog.user} groups={groups} onClose={close} />
      )}
      {dialog?.kind === 'delete' && (
        <DeleteDialog
          title={t('workspaceUsers.deleteTitle', { name: dialog.user })}
          body={t('workspaceUsers.deleteBody')}
          failure={t('workspaceUsers.deleteFailed')}
          remove={() => directoryApi.deleteUser(serviceId, dialog.user)}
          onClose={close}
          testId="user-delete-dialog"
        />
      )}
    </>
  );
}

function CreateUserDialog({ serviceId, onClose }: { serviceId: string; onClose: () => void }) {
  const { t } = useTranslation(['usersTab', 'workspace']);
  const form = useContractForm({
    schema: userFormSchema,
    defaultValues: { name: '', password: '', confirm: '' },
  });
  const create = useWorkspaceMutation(
    (values: UserFormValues) =>
      directoryApi.createUser(serviceId, { name: values.name, password: values.password }),
    onClose,
  );
  return (
    <FormDialog
      title={t('workspaceUsers.createTitle')}
      onClose={onClose}
      onSubmit={form.submitTo(create)}
      change={create}
      failure={t('workspaceUsers.createFailed')}
      submitLabel={t('workspaceUsers.create')}
      testIds={{ dialog: 'user-create-dialog', error: 'user-create-error', submit: 'user-create-submit' }}
    >
      <WorkspaceNameField
        id="user-create-name"
        label={t('workspaceUsers.username')}
        error={form.formState.errors.name?.message}
        {...form.register('name')}
      />
      <PasswordFields
        password={form.register('password')}
        confirm={form.register('confirm')}
        passwordError={form.formState.errors.password?.message}
        confirmError={form.formState.errors.confirm?.message}
        idPrefix="user-create"
      />
    </FormDialog>
  );
}

/** Password and its confirmation, for a new user and for a password change. */
function PasswordFields({
  password,
  confirm,
  passwordError,
  confirmError,
  idPrefix,
}: {
  password: UseFormRegisterReturn;
  confirm: UseFormRegisterReturn;
  passwordError: string | undefined;
  confirmError: string | undefined;
  idPrefix: string;
}) {
  const { t } = useTranslation(['usersTab', 'workspace']);
  const { t: tApp } = useTranslation();
  return (
    <>
      <InputField
        id={`${idPrefix}-password`}
        type="password"
        label={t('workspaceUsers.password')}
        hint={t('workspaceUsers.passwordHint')}
        autoComplete="new-password"
        required
        error={fieldErrorText(tApp, passwordError)}
        data-testid={`${idPrefix}-password`}
        {...password}
      />
      <InputField
        id={`${idPrefix}-confirm`}
        type="password"
        label={t('workspaceUsers.confirmPassword')}
        autoComplete="new-password"
        required
        error={fieldErrorText(tApp, confirmError)}
        data-testid={`${idPrefix}-confirm`}
        {...confirm}
      />
    </>
  );
}

function PasswordDialog({
  serviceId,
  user,
  onClose,
}: {
  serviceId: string;
  user: string;
  onClose: () => void;
}) {
  const { t } = useTranslation(['usersTab', 'workspace']);
  const form = useContractForm({ schema: passwordFormSchema, defaultValues: { password: '', confirm: '' } });
  const change = useWorkspaceMutation(
    (values: PasswordFormValues) => directoryApi.setPassword(serviceId, user, values.password),
    onClose,
  );
  return (
    <FormDialog
      title={t('workspaceUsers.passwordTitle', { name: user })}
      onClose={onClose}
      onSubmit={form.submitTo(change)}
      change={change}
      failure={t('workspaceUsers.passwordFailed')}
      submitLabel={t('workspaceUsers.savePassword')}
      testIds={{
        dialog: 'user-password-dialog',
        error: 'user-password-error',
        submit: 'user-password-submit',
      }}
    >
      <PasswordFields
        password={form.register('password')}
        confirm={form.register('confirm')}
        passwordError={form.formState.errors.password?.message}
        confirmError={form.formState.errors.confirm?.message}
        idPrefix="user-password"
      />
    </FormDialog>
  );
}

function UserGroupsDialog({
  serviceId,
  user,
  groups,
  onClose,
}: {
  serviceId: string;
  user: string;
  groups: readonly WorkspaceGroup[];
  onClose: () => void;
}) {
  const { t } = useTranslation(['usersTab', 'workspace']);
  const memberships = useQuery({
    queryKey: workspaceKeys.userGroups(serviceId, user),
    queryFn: () => directoryApi.userGroups(serviceId, user),
  });
  const change = useWorkspaceMutation((next: MembershipChange) => {
    switch (next.kind) {
      case 'add':
        return directoryApi.addMember(serviceId, next.name, user, next.primary);
      case 'makePrimary':
        return directoryApi.addMember(serviceId, next.name, user, true);
      case 'remove':
        return directoryApi.removeMember(serviceId, next.name, user);
    }
  });
  const current = memberships.data?.groups ?? [];
  return (
    <Dialog title={t('membership.userTitle', { name: user })} onClose={onClose} testId="user-groups-dialog">
      <MembershipEditor
        memberships={current}
        candidates={groups.map((group) => group.name).filter((name) => !current.some((g) => g.name === name))}
        candidateLabel={t('membership.group')}
        emptyText={t('membership.userNone')}
        loading={memberships.isPending}
        loadFailed={memberships.isError ? t('membership.loadFailed') : null}
        busy={change.isPending}
        change={change.variables}
        error={change.error}
        failure={(failed) => membershipFailure(t, failed)}
        onChange={(next) => change.mutate(next)}
        testId="user-groups"
      />
    </Dialog>
  );
}

export function membershipFailure(t: TFunction<['usersTab', 'workspace']>, change: MembershipChange): string {
  switch (change.kind) {
    case 'add':
      return t('membership.addFailed');
    case 'makePrimary':
      return t('membership.primaryFailed');
    case 'remove':
      return t('membership.removeFailed');
  }
}
