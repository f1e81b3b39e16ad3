import { describe, expect, it } from 'vitest';
import type { VpnUserState } from '@debesis/contract';
import { desiredWorkspace } from '../testing/desired.ts';
import {
  assignBackupClientAddresses,
  BACKUP_CLIENT_RANGE,
  ccdAddress,
  ccdText,
  isBackupClientLogin,
  TUNNEL_FILTER_SCRIPT,
} from './backup-client-tunnel.ts';

const login = (name: string, extra: Partial<VpnUserState> = {}): VpnUserState => ({
  name,
  enabled: true,
  password_crypt: '$6$salt$hash',
  traffic_limit_bytes: 0,
  cert_generation: 1,
  ...extra,
});

describe('backup clients’ confined tunnel', () => {
  it('knows a backup client’s login by its mark or, from an older API, by the backup section', () => {
    const desired = desiredWorkspace({
      service_id: 'w',
      backup: {
        jobs: [],
        clients: [{ name: 'nas', password_bcrypt: '$2b$x' }],
        client_repositories: ['old'],
      },
    });
    expect(isBackupClientLogin(login('office', { backup_client: true }), desired)).toBe(true);
    expect(isBackupClientLogin(login('nas'), desired)).toBe(true);
    expect(isBackupClientLogin(login('old'), desired)).toBe(true);
    expect(isBackupClientLogin(login('alice'), desired)).toBe(false);
  });

  it('gives each login a fixed address of the upper half, keeps the one it has, refuses past the range', () => {
    expect(BACKUP_CLIENT_RANGE).toBe('10.8.0.128/25');
    const first = assignBackupClientAddresses(['b', 'a'], new Map());
    expect([...first.assigned]).toEqual([
      ['b', '10.8.0.128'],
      ['a', '10.8.0.129'],
    ]);
    // b deleted, c added: a keeps its address (it may be connected), c takes the freed one.
    const next = assignBackupClientAddresses(['a', 'c'], first.assigned);
    expect(next.assigned.get('a')).toBe('10.8.0.129');
    expect(next.assigned.get('c')).toBe('10.8.0.128');
    // An address read from the files is trusted only when it is one of the range's.
    expect(ccdAddress(ccdText('10.8.0.200'))).toBe('10.8.0.200');
    expect(ccdAddress('ifconfig-push 10.8.0.5 255.255.255.0\n')).toBeUndefined();

    const many = Array.from({ length: 130 }, (_, i) => `m${i}`);
    const full = assignBackupClientAddresses(many, new Map());
    expect(full.assigned.size).toBe(127);
    expect([...full.assigned.values()].every((address) => Number(address.split('.')[3]) >= 128)).toBe(true);
    expect(full.failures.map((failure) => failure.name)).toEqual(['m127', 'm128', 'm129']);
  });

  it('delivers from the range only TCP to the REST server, before the local table', () => {
    expect(TUNNEL_FILTER_SCRIPT).toContain(
      'ip -4 rule add pref 10 from "$range" to "$server/32" ipproto tcp dport "$port" lookup local',
    );
    expect(TUNNEL_FILTER_SCRIPT).toContain('ip -4 rule add pref 11 from "$range" prohibit');
    // The local rule is added at 100 before it leaves 0.
    expect(TUNNEL_FILTER_SCRIPT.indexOf('add pref 100 lookup local')).toBeLessThan(
      TUNNEL_FILTER_SCRIPT.indexOf('del pref 0 lookup local'),
    );
  });
});
