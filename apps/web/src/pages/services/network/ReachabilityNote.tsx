// Who can reach the workspace, in plain words, wherever a page says clients can connect (the
// overview, the VPN, Samba, NFS and FTP cards). A node without client routes answers a workspace
// only from itself (AGENT_CLIENT_ROUTES empty, the default): the programs run, yet a client on
// another machine times out, so the page says so and how to open it, and a card's "Serving"
// line says "this machine only" instead of "clients can connect" (reachableServing).
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
  const { t } = useTranslation('workspace');
  const network = useServiceNetwork(serviceId).data;
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

/**
 * A daemon card's words for "serving": its own (`own`) unless the workspace answers its node
 * only, then "yes, for this machine only".
 */
export function useReachableServing(serviceId: string, name: string, own: () => string): () => string {
  const { t } = useTranslation('workspace');
  const network = useServiceNetwork(serviceId).data;
  return nodeOnly(network) ? () => t('network.servingNodeOnly', { name }) : own;
}
