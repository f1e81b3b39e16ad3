// Customers read node error texts (a service's last error, a backup's or a restore's failure):
// they showed the node's paths, `/var/lib/…/data/nodes/local/ws/<id>/…`.
import { describe, expect, it } from 'vitest';
import { withoutNodePaths } from './node-error-text.ts';

const ROOT = '/var/lib/debesis/data/nodes/local/ws/3f0c9a1e-0b7a-4c11-9d55-2a7d1c0e9b10';

describe('node error texts shown to customers', () => {
  it('attack: a node path in an apply error, a backup failure or a browse error does not reach the customer', () => {
    for (const [text, shown] of [
      [
        `smbd: cannot open ${ROOT}/etc/smb.conf: permission denied`,
        'smbd: cannot open etc/smb.conf: permission denied',
      ],
      [
        `restic: Fatal: unable to open repository at ${ROOT}/backups/repo.`,
        'restic: Fatal: unable to open repository at backups/repo.',
      ],
      [
        `ls: cannot access '${ROOT}/shares/projects/x': No such file`,
        "ls: cannot access 'shares/projects/x': No such file",
      ],
      ['mount: /srv/debesis/images/ws-7.img: wrong fs type', 'mount: ws-7.img: wrong fs type'],
      [`write ${ROOT}: no space left`, 'write .: no space left'],
    ] as const) {
      expect(withoutNodePaths(text)).toBe(shown);
      expect(withoutNodePaths(text)).not.toMatch(/\/var\/lib|\/srv\/|data\/nodes/);
    }
  });

  it('keeps texts without paths, URLs and relative paths as they are', () => {
    for (const text of [
      'Share name already exists',
      'fetch https://backup.example.lt/repo failed',
      'shares/projects: quota exceeded',
      'storage: the storage image is still in use (/dev/loop7)',
      '3/5 files copied',
    ])
      expect(withoutNodePaths(text)).toBe(text);
    expect(withoutNodePaths(null)).toBeNull();
  });
});
