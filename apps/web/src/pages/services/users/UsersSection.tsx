// The service's users (spec §3 "Service user", §4 "Users can be activated and deactivated"):
// list with state, groups and apply status; create with username, password and confirmation;
// change a password; activate or deactivate; see and change a user's groups; delete after
// confirming. Up to the number of users the plan allows.
import type { WorkspaceGroup, WorkspaceUser, WorkspaceUsersResponse } from '@debesis/contract';
import type { TFunction } from 'i18next';
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/dialog/Dialog.tsx';
import { directoryApi } from '../../../workspace/directory-api.ts';
import { workspaceKeys } from '../../../workspace/workspace-keys.ts';
import { useWorkspaceMutation } from '../../../workspace/workspace-resource.ts';
import { ResourceCrud } from '../kit/ResourceCrud.tsx';
import type { FieldBuilders, FormFieldSpec } from '../kit/form-fields.tsx';
import { ResourceFormDialog } from '../kit/ResourceFormDialog.tsx';
import type { FormSchema } from '../../../forms/use-contract-form.ts';
import { MembershipEditor, type MembershipChange } from './MembershipEditor.tsx';
import { OperationError, RowAction } from '../resource-parts.tsx';
import { passwordFormSchema, userFormSchema } from '../workspace-forms.ts';

/** A new password, typed twice; never filled in from the browser's saved ones. */
const NEW_PASSWORD = { type: 'password', autoComplete: 'new-password', required: true } as const;

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
  const [other, setOther] = useState<{ kind: 'password' | 'groups'; user: string } | null>(null);
  const toggle = useWorkspaceMutation((user: WorkspaceUser) =>
    directoryApi.setActive(serviceId, user.name, !user.active),
  );
  const list = users.data?.users ?? [];
  const limit = users.data?.limit ?? null;
  // The plan limits the active users; inactive ones cannot sign in and do not count.
  const active = list.filter((user) => user.active).length;
  const full = limit !== null && active >= limit;
  const close = () => setOther(null);
  // The two password fields of both the create and the password dialog (each form's own schema
  // has them): given that form's text builder.
  const passwordFields = <Schema extends FormSchema>(
    text: (
      name: 'password' | 'confirm',
      id: string,
      label: string,
      options?: Parameters<FieldBuilders<Schema>['text']>[3],
    ) => FormFieldSpec<Schema>,
    prefix: string,
  ) => [
    text('password', `${prefix}-password`, t('workspaceUsers.password'), {
      hint: t('workspaceUsers.passwordHint'),
      input: NEW_PASSWORD,
    }),
    text('confirm', `${prefix}-confirm`, t('workspaceUsers.confirmPassword'), { input: NEW_PASSWORD }),
  ];

  return (
    <>
      <ResourceCrud
        section={{
          title: t('workspaceUsers.title'),
          lead: t('workspaceUsers.lead'),
          ...(limit !== null && { counter: t('workspaceUsers.counter', { count: active, limit }) }),
          addLabel: t('workspaceUsers.add'),
          notice: (
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
          ),
          loadFailed: t('workspaceUsers.loadFailed'),
          emptyText: t('workspaceUsers.empty'),
          testId: 'workspace-users',
        }}
        load={users}
        items={list}
        nameOf={(user) => user.name}
        row="user"
        ready={users.isSuccess && !full}
        badges={(user) => (
          <span
            className={`badge ${user.active ? 'badge--success' : 'badge--warning'}`}
            data-testid={`user-${user.name}-state`}
          >
            {user.active ? t('workspaceUsers.active') : t('workspaceUsers.inactive')}
          </span>
        )}
        details={(user) => (
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
        )}
        actions={(user) => (
          <>
            <RowAction
              label={t('workspaceUsers.changePassword')}
              target={user.name}
              onClick={() => setOther({ kind: 'password', user: user.name })}
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
              onClick={() => setOther({ kind: 'groups', user: user.name })}
              testId={`user-${user.name}-groups-open`}
            />
          </>
        )}
        createOnly
        dialog={(_user, closeDialog) => (
          <ResourceFormDialog
            title={t('workspaceUsers.createTitle')}
            schema={userFormSchema}
            defaultValues={{ name: '', password: '', confirm: '' }}
            save={(values) =>
              directoryApi.createUser(serviceId, { name: values.name, password: values.password })
            }
            failure={t('workspaceUsers.createFailed')}
            submitLabel={t('workspaceUsers.create')}
            testIds={{
              dialog: 'user-create-dialog',
              error: 'user-create-error',
              submit: 'user-create-submit',
            }}
            onClose={closeDialog}
            fields={(f) => [
              f.name('name', 'user-create-name', t('workspaceUsers.username')),
              ...passwordFields<typeof userFormSchema>(f.text, 'user-create'),
            ]}
          />
        )}
        remove={{
          title: (name) => t('workspaceUsers.deleteTitle', { name }),
          body: t('workspaceUsers.deleteBody'),
          failure: t('workspaceUsers.deleteFailed'),
          run: (name) => directoryApi.deleteUser(serviceId, name),
        }}
      />
      {other?.kind === 'password' && (
        <ResourceFormDialog
          title={t('workspaceUsers.passwordTitle', { name: other.user })}
          schema={passwordFormSchema}
          defaultValues={{ password: '', confirm: '' }}
          save={(values) => directoryApi.setPassword(serviceId, other.user, values.password)}
          failure={t('workspaceUsers.passwordFailed')}
          submitLabel={t('workspaceUsers.savePassword')}
          testIds={{
            dialog: 'user-password-dialog',
            error: 'user-password-error',
            submit: 'user-password-submit',
          }}
          onClose={close}
          fields={(f) => passwordFields<typeof passwordFormSchema>(f.text, 'user-password')}
        />
      )}
      {other?.kind === 'groups' && (
        <UserGroupsDialog serviceId={serviceId} user={other.user} groups={groups} onClose={close} />
      )}
    </>
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
