import { describe, expect, it } from 'vitest';
import { renderReadOnlyMatch, renderSshdHead } from './render-sshd-config.ts';

const alice = { name: 'alice', uid: 11, passwordCrypt: '$6$a$b', readOnly: false };
const bob = { name: 'bob', uid: 12, passwordCrypt: '$6$c$d', readOnly: true };

describe('sshd_config of a workspace SFTP server', () => {
  const head = renderSshdHead({
    address: '198.18.0.7',
    port: 2222,
    hostKey: '/d/sftp/key',
    users: [alice, bob],
  });
  const lines = head.split('\n');

  it('listens on the workspace address only, with passwords only', () => {
    expect(lines).toContain('ListenAddress 198.18.0.7:2222');
    expect(lines).toContain('HostKey /d/sftp/key');
    expect(lines).toContain('PasswordAuthentication yes');
    expect(lines).toContain('PubkeyAuthentication no');
    expect(lines).toContain('PermitRootLogin no');
    expect(lines).toContain('AllowUsers alice bob');
    expect(renderSshdHead({ address: '::1', port: 22, hostKey: 'k', users: [] })).toMatch(
      /^ListenAddress \[::1\]:22$[\s\S]*^DenyUsers \*$/m,
    );
  });

  it('internal-sftp only (logging each request), chrooted in the user’s jail, no shell, no forwarding, no TTY', () => {
    expect(lines).toContain('ForceCommand internal-sftp -l INFO -d /home -u 0007');
    expect(lines).toContain('Subsystem sftp internal-sftp -l INFO -d /home -u 0007');
    expect(lines).toContain('ChrootDirectory /run/jails/%u');
    for (const line of [
      'AllowTcpForwarding no',
      'AllowAgentForwarding no',
      'AllowStreamLocalForwarding no',
      'X11Forwarding no',
      'PermitTunnel no',
      'PermitTTY no',
    ])
      expect(lines).toContain(line);
  });

  it('a read-only user’s sftp refuses writes (-R), in a Match block of their own', () => {
    expect(renderReadOnlyMatch(bob)).toEqual({
      kind: 'ftp_user',
      name: 'bob',
      text: 'Match User bob\n  ForceCommand internal-sftp -l INFO -d /home -u 0007 -R\n',
    });
  });
});
