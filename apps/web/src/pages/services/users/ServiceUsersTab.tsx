// /dashboard/services/{id}/users (spec §2 "users"): the service's users and groups.
import { useTranslation } from 'react-i18next';
import { useDocumentTitle } from '../../../components/useDocumentTitle.ts';
import { useWorkspaceGroups, useWorkspaceUsers } from '../../../workspace/directory-api.ts';
import { GroupsSection } from './GroupsSection.tsx';
import { useServiceDetail } from '../service-context.ts';
import { UsersSection } from './UsersSection.tsx';

export function ServiceUsersTab() {
  const { t } = useTranslation('workspace');
  const { service } = useServiceDetail();
  useDocumentTitle(`${t('serviceDetail.tabUsers')} · ${service.name}`);
  const users = useWorkspaceUsers(service.id);
  const groups = useWorkspaceGroups(service.id);
  return (
    <div className="service-tab-stack">
      <UsersSection serviceId={service.id} users={users} groups={groups.data?.groups ?? []} />
      <GroupsSection serviceId={service.id} groups={groups} users={users.data?.users ?? []} />
    </div>
  );
}
