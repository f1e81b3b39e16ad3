// /dashboard/services/{id}/vpn (spec §2 "vpn": VPN users, sessions, traffic, configuration
// download): the workspace's OpenVPN server (where clients connect, where the workspace's services
// are inside the tunnel, whether the node serves it, restart and reload), its users, who is
// connected now, and the traffic over time.
import type { VpnStatus } from '@debesis/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormAlert } from '../../../components/form/fields.tsx';
import { useVpnSessions, useVpnStatus, useVpnUsers, vpnApi } from '../../../workspace/vpn-api.ts';
import { DaemonStatusCard, type DaemonReport } from '../kit/DaemonStatusCard.tsx';
import { ConfirmAction } from '../resource-parts.tsx';
import { useServiceTab } from '../use-service-tab.ts';
import { VpnSessionsSection } from './VpnSessionsSection.tsx';
import { VpnTrafficChart } from './VpnTrafficChart.tsx';
import { VpnUsersSection } from './VpnUsersSection.tsx';
import './vpn.css';

/**
 * The card's report: serving only when the server runs (`serving`), not merely when the driver is
 * content; with no VPN user yet there is no server, and the card says it is not needed.
 */
function reportOf(status: VpnStatus): DaemonReport {
  return {
    placed: status.placed,
    live: status.live === null ? null : status.serving === true,
    reason: status.reason,
    apply_status: status.apply_status,
  };
}

export function ServiceVpnTab() {
  const { t } = useTranslation(['vpnTab', 'workspace']);
  const { service } = useServiceTab('vpn');
  const status = useVpnStatus(service.id);
  const users = useVpnUsers(service.id);
  const sessions = useVpnSessions(service.id);
  const [restart, setRestart] = useState<'confirm' | 'done' | null>(null);
  const data = status.data;
  return (
    <div className="service-tab-stack">
      <DaemonStatusCard
        title={t('vpn.serverTitle')}
        name="OpenVPN"
        status={{ data: data && reportOf(data), isPending: status.isPending, isError: status.isError }}
        words={{
          serving: () => t('vpn.live'),
          notServing: (reason) => (reason ? t('vpn.notLiveReason', { reason }) : t('vpn.notLive')),
          waiting: () => t('vpn.waitingForNode'),
          notPlaced: () => t('vpn.notPlaced'),
        }}
        // The VPN's door: the workspace's own address on every plan (a NAT plan's only one).
        address={{
          label: t('vpn.address'),
          value: data?.address ?? null,
          shown: (host) => `${host}:${data?.port ?? ''}/${data?.protocol ?? ''}`,
          testId: 'vpn-address',
        }}
        facts={[
          ...(data
            ? [
                {
                  label: t('vpn.tunnelAddress'),
                  value: (
                    <>
                      <code data-testid="vpn-tunnel-address">{data.tunnel_address}</code>
                      {' — '}
                      {t('vpn.tunnelAddressNote')}
                    </>
                  ),
                },
              ]
            : []),
        ]}
        actions={
          <button
            type="button"
            className="btn btn--secondary"
            disabled={!data?.placed}
            onClick={() => setRestart('confirm')}
            data-testid="vpn-restart"
          >
            {t('vpn.restart')}
          </button>
        }
        notices={
          <>
            {restart === 'done' && (
              <FormAlert tone="success" testId="vpn-restart-done">
                {t('vpn.restarted')}
              </FormAlert>
            )}
          </>
        }
        reload={() => vpnApi.reload(service.id)}
        testId="vpn"
        notNeeded={data && (data.users === 0 ? t('vpn.notNeeded') : null)}
      />
      {restart === 'confirm' && (
        <ConfirmAction
          title={t('vpn.restartTitle')}
          body={t('vpn.restartBody')}
          confirmLabel={t('vpn.restart')}
          busyLabel={t('vpn.restarting')}
          failure={t('vpn.restartFailed')}
          run={() => vpnApi.restart(service.id)}
          onDone={() => setRestart('done')}
          onClose={() => setRestart((current) => (current === 'confirm' ? null : current))}
          testId="vpn-restart-dialog"
        />
      )}
      <VpnUsersSection serviceId={service.id} users={users} sessions={sessions.data?.sessions} />
      <VpnSessionsSection serviceId={service.id} sessions={sessions} />
      <VpnTrafficChart serviceId={service.id} />
    </div>
  );
}
