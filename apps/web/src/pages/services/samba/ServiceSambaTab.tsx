// /dashboard/services/{id}/samba (spec §2 "samba"): the workspace's Samba server (where clients
// connect, whether the node serves it, reload); its settings (spec §7, POST /samba/{id}/settings:
// how the server is named on the network and the oldest protocol it speaks, applied on the node by
// a reload, no client disconnected); and its shares with their users, permissions and groups.
import {
  SAMBA_DEFAULT_SETTINGS,
  SAMBA_MIN_PROTOCOLS,
  sambaSettingsRequestSchema,
  SHARE_PERMISSIONS,
  type SambaSettings,
  type SambaShareUser,
} from '@debesis/contract';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useWorkspaceGroups, useWorkspaceUsers } from '../../../workspace/directory-api.ts';
import { sambaApi, useSambaShares, useSambaStatus } from '../../../workspace/samba-api.ts';
import { DaemonStatusCard } from '../kit/DaemonStatusCard.tsx';
import { startValues } from '../kit/form-fields.tsx';
import { Facts, ResourceCrud } from '../kit/ResourceCrud.tsx';
import { SettingsFormCard } from '../kit/SettingsFormCard.tsx';
import { OperationError } from '../resource-parts.tsx';
import { shareForm } from './share-form.tsx';
import { useServiceTab } from '../use-service-tab.ts';

type Translate = TFunction<['sambaTab', 'workspace']>;

const settingsOf = (settings: SambaSettings) => startValues(SAMBA_DEFAULT_SETTINGS, settings);

export function ServiceSambaTab() {
  const { t } = useTranslation(['sambaTab', 'workspace']);
  const { service } = useServiceTab('samba');
  const status = useSambaStatus(service.id);
  // Where clients connect, as the API says: a NAT plan's VPN-side address already.
  const address = status.data?.address ?? null;
  return (
    <div className="service-tab-stack">
      <DaemonStatusCard
        title={t('samba.serverTitle')}
        name="Samba"
        status={status}
        words={{
          serving: () => t('samba.live'),
          notServing: (reason) => (reason ? t('samba.notLiveReason', { reason }) : t('samba.notLive')),
        }}
        address={{
          label: t('samba.address'),
          value: address,
          shown: (host) => `\\\\${host}`,
          testId: 'samba-address',
        }}
        reload={() => sambaApi.reload(service.id)}
        testId="samba"
        notNeeded={status.data && (status.data.shares === 0 ? t('samba.notNeeded') : null)}
      />
      {status.data && (
        <SettingsFormCard
          title={t('samba.settingsTitle')}
          saved={t('samba.settingsSaved')}
          failure={t('samba.settingsFailed')}
          testId="samba-settings"
          schema={sambaSettingsRequestSchema}
          defaultValues={settingsOf(status.data.settings)}
          save={(values) => sambaApi.updateSettings(service.id, values)}
          // The form then shows what the server kept (the workgroup in upper case, text trimmed).
          shown={settingsOf}
          fields={(f) => [
            f.text('workgroup', 'samba-settings-workgroup', t('samba.workgroup'), {
              hint: t('samba.workgroupHint'),
              input: { required: true, maxLength: 15 },
            }),
            f.text('server_string', 'samba-settings-server-string', t('samba.serverString'), {
              hint: t('samba.serverStringHint'),
              optional: true,
              input: { maxLength: 64 },
            }),
            f.select(
              'min_protocol',
              'samba-settings-min-protocol',
              t('samba.minProtocol'),
              SAMBA_MIN_PROTOCOLS.map((value) => ({ value, label: t(`samba.protocol_${value}`) })),
              { hint: t('samba.minProtocolHint') },
            ),
          ]}
        />
      )}
      <SharesSection
        serviceId={service.id}
        address={address}
        // Until the status says otherwise the box is offered; the API refuses it on a NAT plan.
        publicAddress={status.data?.public_address !== false}
      />
    </div>
  );
}

function permissionText(user: SambaShareUser, t: Translate): string {
  const granted = SHARE_PERMISSIONS.filter((permission) => user[permission]);
  const names = granted.map((permission) => t(`samba.permission_${permission}`)).join(', ');
  return `${user.name} (${names || t('samba.noAccess')})`;
}

function SharesSection({
  serviceId,
  address,
  publicAddress,
}: {
  serviceId: string;
  address: string | null;
  publicAddress: boolean;
}) {
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
      form={shareForm(serviceId, users.data?.users ?? [], groups.data?.groups ?? [], t, publicAddress)}
      remove={{
        title: (name) => t('samba.deleteTitle', { name }),
        body: t('samba.deleteBody'),
        failure: t('samba.deleteFailed'),
        run: (name) => sambaApi.deleteShare(serviceId, name),
      }}
    />
  );
}
