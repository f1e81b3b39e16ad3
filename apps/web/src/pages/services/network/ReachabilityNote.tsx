// Who can reach the workspace, in plain words, wherever a page says clients can connect (the
// overview, and every daemon's card: kit/DaemonStatusCard.tsx shows it itself). A node without
// client routes answers a workspace only from itself (AGENT_CLIENT_ROUTES empty, the default): the
// programs run, yet a client on another machine times out, so the page says so and how to open it,
// and a card's "Serving" line says "this machine only" instead of "clients can connect".
import type { ServiceNetwork } from '@debesis/contract';
import { useTranslation } from 'react-i18next';
import '../../../i18n/workspace-messages.ts';
import { FormAlert } from '../../../components/form/fields.tsx';
import { useServiceNetwork } from '../../../workspace/network-api.ts';

/** Whether the node said the workspace answers itself only. */
export function nodeOnly(network: ServiceNetwork | undefined): boolean {
  return network?.reachable_from === 'node_only';
}

export function ReachabilityNote({ serviceId, testId }: { serviceId: string; testId: string }) {
  return <ReachabilityNotes network={useServiceNetwork(serviceId).data} testId={testId} />;
}

/** The NAT plan's note and the node's reach, for a network answer already at hand. */
export function ReachabilityNotes({
  network,
  testId,
}: {
  network: ServiceNetwork | undefined;
  testId: string;
}) {
  return (
    <>
      <VpnOnlyNote network={network} testId={`${testId}-vpn-only`} />
      <NodeReach network={network} testId={testId} />
    </>
  );
}

/**
 * A NAT plan's address is the VPN's door only (the agent binds every other daemon inside the
 * tunnel): every card that shows where to connect says so, and which address to use (the API's
 * statuses already name it).
 */
function VpnOnlyNote({ network, testId }: { network: ServiceNetwork | undefined; testId: string }) {
  const { t } = useTranslation('workspace');
  if (!network?.vpn_only || !network.services_address) return null;
  return (
    <FormAlert tone="info" testId={testId}>
      <strong>{t('network.vpnOnlyTitle')}</strong>{' '}
      {t('network.vpnOnly', { address: network.services_address })}
    </FormAlert>
  );
}

function NodeReach({ network, testId }: { network: ServiceNetwork | undefined; testId: string }) {
  const { t } = useTranslation('workspace');
  if (!network?.reachable_from) return null;
  if (network.reachable_from === 'routes')
    return (
      <p className="text-muted" data-testid={testId} data-reach="routes">
        {t('network.routes', { routes: network.client_routes.join(', ') })}
      </p>
    );
  return (
    <FormAlert tone="warning" testId={testId}>
      <strong>{t('network.nodeOnlyTitle')}</strong> {t('network.nodeOnly')} {t('network.howToOpen')}
    </FormAlert>
  );
}
