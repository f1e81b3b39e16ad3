// Issue points 4 and 12 in the dashboard: a workspace its node answers only itself is never shown
// as reachable by clients (the VPN card says "this machine only" and how to open it), and the
// overview shows the month's bandwidth against the plan's, with the throttle when it is used up.
import { configure, screen, waitFor } from '@testing-library/react';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeUser, storeSession, userHandler } from '../../../test/fixtures.ts';
import { GIB, makeServiceNetwork } from '../../../test/network-fixtures.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { server } from '../../../test/server.ts';
import { SERVICE_ID } from '../../../test/service-fixtures.ts';
import { vpnHandlers } from '../../../test/vpn-fixtures.ts';
import { setCsrfCookie, workspaceHandlers } from '../../../test/workspace-fixtures.ts';

configure({ asyncUtilTimeout: 5000 });

beforeAll(async () => {
  await import('../ServiceDetailPage.tsx');
  await import('../ServiceVpnTab.tsx');
});

beforeEach(() => {
  storeSession();
  setCsrfCookie();
  server.use(userHandler(makeUser()));
});

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
