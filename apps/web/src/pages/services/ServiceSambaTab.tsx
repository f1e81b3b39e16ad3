// /dashboard/services/{id}/samba (spec §2 "samba"): the workspace's Samba server (where clients
// connect, whether the node serves it, reload) and its shares with their users, permissions and
// groups.
import { SHARE_PERMISSIONS, type SambaShareUser } from '@debesis/contract';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useWorkspaceGroups, useWorkspaceUsers } from '../../workspace/directory-api.ts';
import { sambaApi, useSambaShares, useSambaStatus } from '../../workspace/samba-api.ts';
import { DaemonStatusCard } from './DaemonStatusCard.tsx';
import { Facts, ResourceCrud } from './kit/ResourceCrud.tsx';
import { OperationError } from './resource-parts.tsx';
import { useServiceTab } from './use-service-tab.ts';
import { SambaSettingsForm } from './SambaSettingsForm.tsx';
import { ShareDialog } from './ShareDialog.tsx';

type Translate = TFunction<['sambaTab', 'workspace']>;

export function ServiceSambaTab() {
  const { t } = useTranslation(['sambaTab', 'workspace']);
  const { service } = useServiceTab('samba');
  const status = useSambaStatus(service.id);
  const address = status.data?.address ?? null;
  return (
    <div className="service-tab-stack">
      <DaemonStatusCard
        title={t('samba.serverTitle')}
        name="Samba"
        report={status.data}
        loading={status.isPending}
        failed={status.isError}
        words={{
          serving: () => t('samba.live'),
          notServing: (reason) => (reason ? t('samba.notLiveReason', { reason }) : t('samba.notLive')),
          waiting: () => t('samba.waitingForNode'),
          notPlaced: () => t('samba.notPlaced'),
        }}
        rows={
          <div>
            <dt>{t('samba.address')}</dt>
            <dd data-testid="samba-address">
              {address ? <code>{`\\\\${address}`}</code> : t('samba.notPlaced')}
            </dd>
          </div>
        }
        reload={{
          run: () => sambaApi.reload(service.id),
          label: t('samba.reload'),
          busy: t('samba.reloading'),
          done: t('samba.reloaded'),
          failed: t('samba.reloadFailed'),
        }}
        testId="samba"
      />
      {status.data && <SambaSettingsForm serviceId={service.id} settings={status.data.settings} />}
      <SharesSection serviceId={service.id} address={address} />
    </div>
  );
}

function permissionText(user: SambaShareUser, t: Translate): string {
  const granted = SHARE_PERMISSIONS.filter((permission) => user[permission]);
  const names = granted.map((permission) => t(`samba.permission_${permission}`)).join(', ');
  return `${user.name} (${names || t('samba.noAccess')})`;
}

function SharesSection({ serviceId, address }: { serviceId: string; address: string | null }) {
  const { t } = useTranslation(['sambaTab', 'workspace']);
  const shares = useSambaShares(serviceId);
  const users = useWorkspaceUsers(serviceId);
  const groups = useWorkspaceGroups(serviceId);
  return (
    <ResourceCrud
      section={{
        title: t('samba.sharesTitle'),
        lead: t('samba.sharesLead'),
        addLabel: t('samba.add'),
        notice: (users.isError || groups.isError) && (
          <OperationError error={users.error ?? groups.error} failure={t('samba.usersLoadFailed')} />
        ),
        loadFailed: t('samba.loadFailed'),
        emptyText: t('samba.empty'),
        testId: 'samba-shares',
      }}
      load={shares}
      items={shares.data?.shares ?? []}
      nameOf={(share) => share.name}
      row="share"
      // The form lists the service's users and groups to choose from: wait for them.
      ready={shares.isSuccess && users.isSuccess && groups.isSuccess}
      badges={(share) => (
        <>
          {share.guest_ok && <span className="badge badge--warning">{t('samba.guestBadge')}</span>}
          {!share.browseable && <span className="badge">{t('samba.hiddenBadge')}</span>}
          {share.bind_public_ip && <span className="badge badge--info">{t('samba.publicBadge')}</span>}
        </>
      )}
      details={(share) => (
        <Facts
          facts={[
            address && {
              label: t('samba.connect'),
              value: <code data-testid={`share-${share.name}-unc`}>{`\\\\${address}\\${share.name}`}</code>,
            },
            { label: t('samba.path'), value: <code>{share.path}</code> },
            share.description && { label: t('samba.description'), value: share.description },
            {
              label: t('samba.users'),
              value:
                share.users.length === 0
                  ? t('samba.none')
                  : share.users.map((user) => permissionText(user, t)).join('; '),
              testId: `share-${share.name}-users`,
            },
            {
              label: t('samba.groups'),
              value: share.groups.length === 0 ? t('samba.none') : share.groups.join(', '),
              testId: `share-${share.name}-groups`,
            },
          ]}
        />
      )}
      dialog={(share, close) => (
        <ShareDialog
          serviceId={serviceId}
          share={share}
          users={users.data?.users ?? []}
          groups={groups.data?.groups ?? []}
          onClose={close}
        />
      )}
      remove={{
        title: (name) => t('samba.deleteTitle', { name }),
        body: t('samba.deleteBody'),
        failure: t('samba.deleteFailed'),
        run: (name) => sambaApi.deleteShare(serviceId, name),
      }}
    />
  );
}
