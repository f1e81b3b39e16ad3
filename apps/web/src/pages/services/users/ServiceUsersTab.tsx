// /dashboard/services/{id}/users (spec §2 "users"): the service's users and groups.
import { useWorkspaceGroups, useWorkspaceUsers } from '../../../workspace/directory-api.ts';
import { GroupsSection } from './GroupsSection.tsx';
import { useServiceTab } from '../use-service-tab.ts';
import { UsersSection } from './UsersSection.tsx';

export function ServiceUsersTab() {
  const { service } = useServiceTab('users');
  const users = useWorkspaceUsers(service.id);
  const groups = useWorkspaceGroups(service.id);
  return (
    <div className="service-tab-stack">
      <UsersSection serviceId={service.id} users={users} groups={groups.data?.groups ?? []} />
      <GroupsSection serviceId={service.id} groups={groups} users={users.data?.users ?? []} />
    </div>
  );
}
