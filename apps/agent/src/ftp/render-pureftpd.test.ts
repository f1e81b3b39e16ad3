import { describe, expect, it } from 'vitest';
import { WORKSPACE_ID_FIRST_BASE } from '@debesis/contract';
import type { FileAccess } from '../file-access/jails.ts';
import {
  FTP_SETTINGS_DEFAULTS,
  ftpSettingsProblem,
  pureFtpdArgv,
  renderPureftpdPasswd,
} from './render-pureftpd.ts';

const B = WORKSPACE_ID_FIRST_BASE;

describe('pure-ftpd rendering', () => {
  it('writes one virtual user a line: the SHA-512 crypt, the uid, the workspace group, chrooted in the jail, starting in home', () => {
    const access: FileAccess = {
      gid: B,
      failures: [],
      jails: [
        { user: { name: 'alice', uid: B + 1, passwordCrypt: '$6$salt$hash', readOnly: false }, entries: [] },
        { user: { name: 'bob', uid: B + 2, passwordCrypt: '$6$s2$h2', readOnly: true }, entries: [] },
      ],
    };
    expect(renderPureftpdPasswd(access)).toBe(
      `alice:$6$salt$hash:${B + 1}:${B}::/run/jails/alice/./home/::::::::::::\n` +
        `bob:$6$s2$h2:${B + 2}:${B}::/run/jails/bob/./home/::::::::::::\n`,
    );
    expect(renderPureftpdPasswd({ ...access, jails: [] })).toBe('');
  });

  it('runs from flags: address and port, the puredb, the settings, TLS offered or required', () => {
    const argv = pureFtpdArgv({
      program: 'pure-ftpd',
      address: '198.18.0.7',
      ftp: {
        ...FTP_SETTINGS_DEFAULTS,
        port: 2121,
        passive_port_min: 40000,
        passive_port_max: 40010,
        max_clients: 9,
        max_clients_per_user: 2,
        idle_timeout_minutes: 7,
        tls_required: true,
      },
      puredb: '/d/ftp/pureftpd.pdb',
      transferLog: '/d/ftp/log/transfers.log',
      certificate: '/d/ftp/tls/pure-ftpd.pem',
      minUid: B + 1,
    });
    const flag = (name: string) => argv[argv.indexOf(name) + 1];
    expect(argv[0]).toBe('pure-ftpd');
    expect(flag('--bind')).toBe('198.18.0.7,2121');
    expect(flag('--login')).toBe('puredb:/d/ftp/pureftpd.pdb');
    expect(flag('--passiveportrange')).toBe('40000:40010');
    expect(flag('--maxclientsnumber')).toBe('9');
    expect(flag('--peruserlimits')).toBe('2:0');
    expect(flag('--maxidletime')).toBe('7');
    expect(flag('--minuid')).toBe(String(B + 1));
    expect(flag('--tls')).toBe('2');
    expect(flag('--certfile')).toBe('/d/ftp/tls/pure-ftpd.pem');
    expect(flag('--altlog')).toBe('stats:/d/ftp/log/transfers.log');
    expect(argv).toEqual(expect.arrayContaining(['--noanonymous', '--chrooteveryone', '--nochmod']));
    // TLS is offered even when not required.
    const optional = pureFtpdArgv({
      program: 'p',
      address: 'a',
      ftp: FTP_SETTINGS_DEFAULTS,
      puredb: 'x',
      transferLog: 't',
      certificate: 'c',
      minUid: 1,
    });
    expect(optional[optional.indexOf('--tls') + 1]).toBe('1');
  });

  it('refuses an empty passive range, a port inside it and more clients than half its ports', () => {
    const ftp = { ...FTP_SETTINGS_DEFAULTS, enabled: true, users: [] };
    expect(ftpSettingsProblem(ftp)).toBeUndefined();
    expect(ftpSettingsProblem({ ...ftp, passive_port_min: 50000, passive_port_max: 40000 })).toMatch(/empty/);
    expect(ftpSettingsProblem({ ...ftp, port: 30005 })).toMatch(/inside the passive port range/);
    expect(ftpSettingsProblem({ ...ftp, passive_port_max: 30098 })).toMatch(
      /50 clients need at least 100 passive ports/,
    );
  });
});
