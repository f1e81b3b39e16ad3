// Issue 36, point 8: a transfer of a file the jail spec does not name (a jail entry removed while
// its session still ran) reached monitoring's activity with the node's jail folder in its path.
import { describe, expect, it } from 'vitest';
import { jailWorkspacePath, transferEvents } from './transfer-log.ts';

describe('FTP and SFTP activity paths', () => {
  it('attack: a file outside the jail spec is named as the session saw it, never by the node’s jails folder', () => {
    const spec = 'alice 1000001 home /srv/home/alice rw\n';
    const [event] = transferEvents(
      [{ id: '5:0', text: '1795925434 6b0ba5b6.4709 alice 198.19.4.2 D 6 0 /run/jails/alice/./gone/x.txt' }],
      spec,
    );
    expect(event?.path).toBe('/gone/x.txt');
    const sources = new Map([['alice/home', '/srv/home/alice']]);
    expect(jailWorkspacePath('/run/jails/bob/./home/y.txt', sources)).toBe('/home/y.txt');
    expect(jailWorkspacePath('/var/lib/debesis/ws/1/etc/passwd', sources)).toBe('/passwd');
    expect(jailWorkspacePath('/run/jails/alice/./home/a.txt', sources)).toBe('/home/alice/a.txt');
  });
});
