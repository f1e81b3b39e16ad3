// Issue points 4 and 12 in the dashboard: a workspace its node answers only itself is never shown
// as reachable by clients (the VPN card says "this machine only" and how to open it), and the
// overview shows the month's bandwidth against the plan's, with the throttle when it is used up.
import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { VPN_TUNNEL_SERVER_ADDRESS } from '@debesis/contract';
import { changeLanguage } from '../../../i18n/language.ts';
import { GIB, makeServiceNetwork } from '../../../test/network-fixtures.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { server } from '../../../test/server.ts';
import { SERVICE_ID } from '../../../test/service-fixtures.ts';
import { vpnHandlers } from '../../../test/vpn-fixtures.ts';
import { ftpHandlers, makeFtpStatus } from '../../../test/ftp-fixtures.ts';
import { makeNfsStatus, nfsHandlers } from '../../../test/nfs-fixtures.ts';
import { makeSambaStatus, workspaceHandlers } from '../../../test/workspace-fixtures.ts';
import { signIn } from '../../../test/sign-in.ts';
import { loadServicePages } from '../../../test/service-pages.ts';

// NFS may not have shipped in this build: this file ships it for itself.
vi.mock('@debesis/contract', async (importOriginal) =>
  (await import('../../../test/ship-features.ts')).withShipped(await importOriginal(), ['nfs']),
);

loadServicePages(
  () => import('../vpn/ServiceVpnTab.tsx'),
  () => import('../samba/ServiceSambaTab.tsx'),
  () => import('../nfs/ServiceNfsTab.tsx'),
  () => import('../ftp/ServiceFtpTab.tsx'),
);

beforeEach(() => signIn());

describe('reachability', () => {
  it('says the VPN is served for this machine only, and how to open it, when the node answers only itself', async () => {
    server.use(
      ...workspaceHandlers({
        network: makeServiceNetwork({ reachable_from: 'node_only', client_routes: [] }),
      }),
      ...vpnHandlers(),
    );
    renderApp(`/dashboard/services/${SERVICE_ID}/vpn`);
    const note = await screen.findByTestId('vpn-reach');
    expect(note.textContent).toContain('Reachable only from this machine');
    expect(note.textContent).toContain('AGENT_CLIENT_ROUTES');
    await waitFor(() =>
      expect(screen.getByTestId('vpn-live').textContent).toContain('for this machine only'),
    );
    expect(screen.getByTestId('vpn-live').textContent).not.toContain('clients connect');
  });

  it('says clients connect, and from where, when the node has client routes', async () => {
    server.use(...workspaceHandlers(), ...vpnHandlers());
    renderApp(`/dashboard/services/${SERVICE_ID}/vpn`);
    expect((await screen.findByTestId('vpn-reach')).textContent).toContain('0.0.0.0/0');
    await waitFor(() => expect(screen.getByTestId('vpn-live').textContent).toContain('VPN clients connect'));
  });
});

describe('a NAT plan (issue 36 point 13)', () => {
  const nat = makeServiceNetwork({ vpn_only: true, services_address: VPN_TUNNEL_SERVER_ADDRESS });

  it('shows the VPN-side address the API names and says to connect the VPN first, in both languages', async () => {
    // The API's status names the address the daemons listen on (issue 36): the card shows it as is.
    server.use(
      ...workspaceHandlers({ network: nat, samba: makeSambaStatus({ address: VPN_TUNNEL_SERVER_ADDRESS }) }),
    );
    renderApp(`/dashboard/services/${SERVICE_ID}/samba`);
    await waitFor(() =>
      expect(screen.getByTestId('samba-address').textContent).toBe(`\\\\${VPN_TUNNEL_SERVER_ADDRESS}`),
    );
    const note = await screen.findByTestId('samba-reach-vpn-only');
    expect(note.textContent).toContain('Connect the VPN first.');
    expect(note.textContent).toContain(`inside the VPN, at ${VPN_TUNNEL_SERVER_ADDRESS}`);
    try {
      await changeLanguage('lt', 'storage');
      await waitFor(() => expect(note.textContent).toContain('Pirmiausia prisijunkite prie VPN.'));
      expect(note.textContent).toContain(`VPN viduje, adresu ${VPN_TUNNEL_SERVER_ADDRESS}`);
    } finally {
      await changeLanguage('en', 'storage');
    }
  });

  it('says nothing of it for a plan with an address of its own', async () => {
    server.use(...workspaceHandlers());
    renderApp(`/dashboard/services/${SERVICE_ID}/samba`);
    await screen.findByTestId('samba-reach');
    expect(screen.queryByTestId('samba-reach-vpn-only')).toBeNull();
  });

  it.each([
    ['nfs', () => nfsHandlers({ status: makeNfsStatus({ address: VPN_TUNNEL_SERVER_ADDRESS }) })],
    ['ftp', () => ftpHandlers({ status: makeFtpStatus({ address: VPN_TUNNEL_SERVER_ADDRESS }) })],
  ] as const)(
    'the %s card says it too, from its own card, with the address its status names',
    async (tab, handlers) => {
      server.use(...workspaceHandlers({ network: nat }), ...handlers());
      renderApp(`/dashboard/services/${SERVICE_ID}/${tab}`);
      expect((await screen.findByTestId(`${tab}-reach-vpn-only`)).textContent).toContain(
        'Connect the VPN first.',
      );
      const address = tab === 'ftp' ? 'ftp-host' : `${tab}-address`;
      await waitFor(() =>
        expect(screen.getByTestId(address).textContent).toContain(VPN_TUNNEL_SERVER_ADDRESS),
      );
    },
  );
});

describe('bandwidth on the overview', () => {
  it('shows the month’s use against the plan’s, and the throttle once it is used up', async () => {
    const network = makeServiceNetwork();
    server.use(
      ...workspaceHandlers({
        network: {
          ...network,
          bandwidth: { ...network.bandwidth!, used_bytes: 101 * GIB, percent: 101, throttled: true },
        },
      }),
    );
    renderApp(`/dashboard/services/${SERVICE_ID}`);
    const card = await screen.findByTestId('service-bandwidth');
    await waitFor(() => expect(card.textContent).toContain('101 GB of 100 GB (101%)'));
    expect(screen.getByTestId('service-bandwidth-throttled').textContent).toContain('10 Mbit/s');
    expect(screen.getByTestId('service-bandwidth-meter').getAttribute('data-tone')).toBe('full');
  });
});
