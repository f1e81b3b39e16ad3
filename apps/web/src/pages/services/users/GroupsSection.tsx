// The service's groups (spec §3 "Group"): list with description, members and apply status;
// create with a name and description; rename it or edit the description; manage members with their primary
// flag; delete after confirming.
import type { WorkspaceGroup, WorkspaceUser } from '@debesis/contract';
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/dialog/Dialog.tsx';
import { directoryApi } from '../../../workspace/directory-api.ts';
import { workspaceKeys } from '../../../workspace/workspace-keys.ts';
import { useWorkspaceMutation } from '../../../workspace/workspace-resource.ts';
import { ResourceCrud } from '../kit/ResourceCrud.tsx';
import { ResourceFormDialog } from '../kit/ResourceFormDialog.tsx';
import { MembershipEditor, type MembershipChange } from './MembershipEditor.tsx';
import { RowAction } from '../resource-parts.tsx';
import { membershipFailure } from './UsersSection.tsx';
import { groupFormSchema } from '../workspace-forms.ts';

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
  const [membersOf, setMembersOf] = useState<string | null>(null);
  return (
    <>
      <ResourceCrud
        section={{
          title: t('workspaceGroups.title'),
          lead: t('workspaceGroups.lead'),
          addLabel: t('workspaceGroups.add'),
          loadFailed: t('workspaceGroups.loadFailed'),
          emptyText: t('workspaceGroups.empty'),
          testId: 'workspace-groups',
        }}
        load={groups}
        items={groups.data?.groups ?? []}
        nameOf={(group) => group.name}
        row="group"
        urlPrefix="groups-"
        ready={groups.isSuccess}
        details={(group) => (
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
        )}
        actions={(group) => (
          <RowAction
            label={t('workspaceGroups.manageMembers')}
            target={group.name}
            onClick={() => setMembersOf(group.name)}
            testId={`group-${group.name}-members-open`}
          />
        )}
        dialog={(group, close) => {
          // One form for both: a group being changed may take a new name.
          const mode = group ? 'edit' : 'create';
          return (
            <ResourceFormDialog
              title={
                group
                  ? t('workspaceGroups.editTitle', { name: group.name })
                  : t('workspaceGroups.createTitle')
              }
              schema={groupFormSchema}
              defaultValues={
                group ? { name: group.name, description: group.description } : { name: '', description: '' }
              }
              save={(values) =>
                group
                  ? directoryApi.updateGroup(serviceId, group.name, values)
                  : directoryApi.createGroup(serviceId, values)
              }
              failure={group ? t('workspaceGroups.updateFailed') : t('workspaceGroups.createFailed')}
              submitLabel={group ? t('workspace:resource.save') : t('workspaceGroups.create')}
              testIds={{
                dialog: `group-${mode}-dialog`,
                error: `group-${mode}-error`,
                submit: `group-${mode}-submit`,
              }}
              onClose={close}
              fields={(f) => [
                f.name('name', `group-${mode}-name`, t('workspaceGroups.name')),
                f.text('description', 'group-description', t('workspaceGroups.description'), {
                  optional: true,
                }),
              ]}
            />
          );
        }}
        remove={{
          title: (name) => t('workspaceGroups.deleteTitle', { name }),
          body: t('workspaceGroups.deleteBody'),
          failure: t('workspaceGroups.deleteFailed'),
          run: (name) => directoryApi.deleteGroup(serviceId, name),
        }}
      />
      {membersOf !== null && (
        <GroupMembersDialog
          serviceId={serviceId}
          group={membersOf}
          users={users}
          onClose={() => setMembersOf(null)}
        />
      )}
    </>
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
