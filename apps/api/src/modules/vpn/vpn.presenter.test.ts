import { VPN_TUNNEL_NETWORK } from '@debesis/contract';
import { describe, expect, it } from 'vitest';
import { presentTunnel } from './vpn.presenter.ts';

describe('the tunnel as the VPN status tells it', () => {
  it('is where the agent’s server sits: the first address of the tunnel network', () => {
    expect(VPN_TUNNEL_NETWORK).toBe('10.8.0.0/24');
    expect(presentTunnel()).toEqual({ tunnel_address: '10.8.0.1', tunnel_network: '10.8.0.0/24' });
  });

  it('takes the first address of any network, written from its start or not', () => {
    expect(presentTunnel('172.16.4.0/22').tunnel_address).toBe('172.16.4.1');
    expect(presentTunnel('172.16.6.9/22').tunnel_address).toBe('172.16.4.1');
    expect(presentTunnel('192.168.255.252/30').tunnel_address).toBe('192.168.255.253');
  });

  it('refuses what is no IPv4 network', () => {
    for (const network of ['10.8.0.0', '10.8.0.0/31', '10.8.0.256/24', 'fd00::/64'])
      expect(() => presentTunnel(network), network).toThrow(/no IPv4 network/);
  });
});
