// The service's groups (spec §3 "Group"): list with description, members and apply status;
// create with a name and description; edit the description; manage members with their primary
// flag; delete after confirming.
import type { WorkspaceGroup, WorkspaceUser } from '@debesis/contract';
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
  ResourceRow,
  ResourceSection,
  RowAction,
  WorkspaceNameField,
} from './resource-parts.tsx';
import { membershipFailure } from './UsersSection.tsx';
import {
  groupEditFormSchema,
  groupFormSchema,
  type GroupEditFormValues,
  type GroupFormValues,
} from './workspace-forms.ts';

type GroupDialog =
  | { kind: 'create' }
  | { kind: 'edit'; group: WorkspaceGroup }
  | { kind: 'members'; group: string }
  | { kind: 'delete'; group: string };

export function GroupsSection({
  serviceId,
  groups,
  users,
}: {
  serviceId: string;
  groups: UseQueryResult<{ groups: WorkspaceGroup[] }>;
  users: readonly WorkspaceUser[];
}) {
  const { t } = useTranslation(['usersTab', 'workspace']);
  const [dialog, setDialog] = useState<GroupDialog | null>(null);
  const list = groups.data?.groups ?? [];
  const listPage = useUrlList(list, (group) => group.name, { prefix: 'groups-' });
  const close = () => setDialog(null);
  return (
    <>
      <ResourceSection
        title={t('workspaceGroups.title')}
        lead={t('workspaceGroups.lead')}
        addLabel={t('workspaceGroups.add')}
        onAdd={() => setDialog({ kind: 'create' })}
        addDisabled={!groups.isSuccess}
        load={groups}
        loadFailed={t('workspaceGroups.loadFailed')}
        emptyText={t('workspaceGroups.empty')}
        statuses={list.map((group) => group.apply_status)}
        list={listPage}
        testId="workspace-groups"
      >
        {listPage.shown.map((group) => (
          <ResourceRow
            key={group.name}
            name={group.name}
            testId={`group-${group.name}`}
            status={group.apply_status}
            applyError={group.apply_error}
            details={
              <>
                {group.description && <p>{group.description}</p>}
                <p className="text-muted" data-testid={`group-${group.name}-members`}>
                  {group.members.length === 0
                    ? t('workspaceGroups.noMembers')
                    : t('workspaceGroups.members', {
                        members: group.members
                          .map((member) =>
                            member.primary
                              ? t('workspaceGroups.primaryMember', { name: member.name })
                              : member.name,
                          )
                          .join(', '),
                      })}
                </p>
              </>
            }
            actions={
              <>
                <RowAction
                  label={t('workspace:resource.edit')}
                  target={group.name}
                  onClick={() => setDialog({ kind: 'edit', group })}
                  testId={`group-${group.name}-edit`}
                />
                <RowAction
                  label={t('workspaceGroups.manageMembers')}
                  target={group.name}
                  onClick={() => setDialog({ kind: 'members', group: group.name })}
                  testId={`group-${group.name}-members-open`}
                />
                <RowAction
                  label={t('workspace:resource.delete')}
                  target={group.name}
                  danger
                  onClick={() => setDialog({ kind: 'delete', group: group.name })}
                  testId={`group-${group.name}-delete`}
                />
              </>
            }
          />
        ))}
      </ResourceSection>
      {dialog?.kind === 'create' && <CreateGroupDialog serviceId={serviceId} onClose={close} />}
      {dialog?.kind === 'edit' && (
        <EditGroupDialog serviceId={serviceId} group={dialog.group} onClose={close} />
      )}
      {dialog?.kind === 'members' && (
        <GroupMembersDialog serviceId={serviceId} group={dialog.group} users={users} onClose={close} />
      )}
      {dialog?.kind === 'delete' && (
        <DeleteDialog
          title={t('workspaceGroups.deleteTitle', { name: dialog.group })}
          body={t('workspaceGroups.deleteBody')}
          failure={t('workspaceGroups.deleteFailed')}
          remove={() => directoryApi.deleteGroup(serviceId, dialog.group)}
          onClose={close}
          testId="group-delete-dialog"
        />
      )}
    </>
  );
}

function DescriptionField({ error, ...props }: { error: string | undefined } & UseFormRegisterReturn) {
  const { t } = useTranslation(['usersTab', 'workspace']);
  const { t: tApp } = useTranslation();
  return (
    <InputField
      id={`group-${props.name}`}
      label={t('workspaceGroups.description')}
      optional
      error={fieldErrorText(tApp, error)}
      data-testid="group-description"
      {...props}
    />
  );
}

function CreateGroupDialog({ serviceId, onClose }: { serviceId: string; onClose: () => void }) {
  const { t } = useTranslation(['usersTab', 'workspace']);
  const form = useContractForm({ schema: groupFormSchema, defaultValues: { name: '', description: '' } });
  const create = useWorkspaceMutation(
    (values: GroupFormValues) => directoryApi.createGroup(serviceId, values),
    onClose,
  );
  return (
    <FormDialog
      title={t('workspaceGroups.createTitle')}
      onClose={onClose}
      onSubmit={form.submitTo(create)}
      change={create}
      failure={t('workspaceGroups.createFailed')}
      submitLabel={t('workspaceGroups.create')}
      testIds={{ dialog: 'group-create-dialog', error: 'group-create-error', submit: 'group-create-submit' }}
    >
      <WorkspaceNameField
        id="group-create-name"
        label={t('workspaceGroups.name')}
        error={form.formState.errors.name?.message}
        {...form.register('name')}
      />
      <DescriptionField
        error={form.formState.errors.description?.message}
        {...form.register('description')}
      />
    </FormDialog>
  );
}

function EditGroupDialog({
  serviceId,
  group,
  onClose,
}: {
  serviceId: string;
  group: WorkspaceGroup;
  onClose: () => void;
}) {
  const { t } = useTranslation(['usersTab', 'workspace']);
  const form = useContractForm({
    schema: groupEditFormSchema,
    defaultValues: { description: group.description },
  });
  const update = useWorkspaceMutation(
    (values: GroupEditFormValues) => directoryApi.updateGroup(serviceId, group.name, values),
    onClose,
  );
  return (
    <FormDialog
      title={t('workspaceGroups.editTitle', { name: group.name })}
      onClose={onClose}
      onSubmit={form.submitTo(update)}
      change={update}
      failure={t('workspaceGroups.updateFailed')}
      submitLabel={t('workspace:resource.save')}
      testIds={{ dialog: 'group-edit-dialog', error: 'group-edit-error', submit: 'group-edit-submit' }}
    >
      <DescriptionField
        error={form.formState.errors.description?.message}
        {...form.register('description')}
      />
    </FormDialog>
  );
}

function GroupMembersDialog({
  serviceId,
  group,
  users,
  onClose,
}: {
  serviceId: string;
  group: string;
  users: readonly WorkspaceUser[];
  onClose: () => void;
}) {
  const { t } = useTranslation(['usersTab', 'workspace']);
  const members = useQuery({
    queryKey: workspaceKeys.groupMembers(serviceId, group),
    queryFn: () => directoryApi.groupMembers(serviceId, group),
  });
  const change = useWorkspaceMutation((next: MembershipChange) => {
    switch (next.kind) {
      case 'add':
        return directoryApi.addMember(serviceId, group, next.name, next.primary);
      case 'makePrimary':
        return directoryApi.addMember(serviceId, group, next.name, true);
      case 'remove':
        return directoryApi.removeMember(serviceId, group, next.name);
    }
  });
  const current = members.data?.members ?? [];
  return (
    <Dialog
      title={t('membership.groupTitle', { name: group })}
      onClose={onClose}
      testId="group-members-dialog"
    >
      <MembershipEditor
        memberships={current}
        candidates={users.map((user) => user.name).filter((name) => !current.some((m) => m.name === name))}
        candidateLabel={t('membership.user')}
        emptyText={t('membership.groupNone')}
        loading={members.isPending}
        loadFailed={members.isError ? t('membership.loadFailed') : null}
        busy={change.isPending}
        change={change.variables}
        error={change.error}
        failure={(failed) => membershipFailure(t, failed)}
        onChange={(next) => change.mutate(next)}
        testId="group-members"
      />
    </Dialog>
  );
}
