import { describe, expect, it } from 'vitest';
import { WORKSPACE_ID_BLOCK, WORKSPACE_ID_FIRST_BASE as B } from '@debesis/contract';
import { desiredUser, desiredWorkspace } from '../testing/desired.ts';
import { renderAccounts } from './render-accounts.ts';
import { validateAccounts } from './validate-accounts.ts';

const workspace = (overrides: Parameters<typeof desiredWorkspace>[0]) => desiredWorkspace(overrides);

describe('workspace accounts', () => {
  it('renders passwd, group and shadow: ids from the block, default group, locked inactive users', () => {
    const accounts = validateAccounts(
      workspace({
        service_id: 'w',
        users: [
          desiredUser('bob', B + 2, { active: false }),
          desiredUser('alice', B + 1, { primary_gid: B + 10 }),
        ],
        groups: [{ name: 'team', gid: B + 10, members: ['bob', 'alice', 'bob'] }],
      }),
    );
    expect(accounts.failures).toEqual([]);
    const files = renderAccounts(accounts, '/srv/home');
    expect(files.passwd).toBe(
      [
        'root:x:0:0:root:/root:/usr/sbin/nologin',
        'nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin',
        'sshd:x:65534:65534:sshd privilege separation:/run/sshd:/usr/sbin/nologin',
        `alice:x:${B + 1}:${B + 10}::/srv/home/alice:/usr/sbin/nologin`,
        `bob:x:${B + 2}:${B}::/srv/home/bob:/usr/sbin/nologin`,
        '',
      ].join('\n'),
    );
    expect(files.group).toBe(
      ['root:x:0:', 'nogroup:x:65534:', `users:x:${B}:alice,bob`, `team:x:${B + 10}:alice,bob`, ''].join(
        '\n',
      ),
    );
    expect(files.shadow).toBe(
      ['root:*:::::::', 'nobody:*:::::::', 'alice:$6$testsalt$alice:::::::', 'bob:!:::::::', ''].join('\n'),
    );
  });

  it('renders the same bytes for the same state in any order', () => {
    const users = [desiredUser('alice', B + 1), desiredUser('bob', B + 2)];
    const a = renderAccounts(validateAccounts(workspace({ service_id: 'w', users })), '/srv/home');
    const b = renderAccounts(
      validateAccounts(workspace({ service_id: 'w', users: [...users].reverse() })),
      '/srv/home',
    );
    expect(a).toEqual(b);
  });

  it('leaves out bad users and groups and says why, keeping the rest', () => {
    const accounts = validateAccounts(
      workspace({
        service_id: 'w',
        users: [
          desiredUser('root', B + 1),
          desiredUser('outside', B + WORKSPACE_ID_BLOCK),
          desiredUser('alice', B + 3, { primary_gid: B + 99 }),
          desiredUser('alice', B + 4),
          { ...desiredUser('colon', B + 5), password_crypt: '$6$x:y' },
          desiredUser('bob', B + 6),
        ],
        groups: [
          { name: 'team', gid: B + 10, members: ['bob', 'ghost'] },
          { name: 'users', gid: B + 11, members: [] },
          { name: 'dup', gid: B + 10, members: [] },
        ],
      }),
    );
    expect(accounts.users.map((u) => [u.name, u.gid])).toEqual([
      ['alice', B],
      ['bob', B],
    ]);
    expect(accounts.groups).toEqual([{ name: 'team', gid: B + 10, members: ['bob'] }]);
    expect(accounts.failures).toEqual([
      { kind: 'group', name: 'users', error: '"users" is reserved' },
      { kind: 'group', name: 'dup', error: `gid ${B + 10} is taken by another group` },
      { kind: 'user', name: 'root', error: '"root" is reserved' },
      {
        kind: 'user',
        name: 'outside',
        error: expect.stringMatching(/outside the workspace's ids/) as string,
      },
      {
        kind: 'user',
        name: 'alice',
        error: expect.stringMatching(/primary group .* using "users"/) as string,
      },
      { kind: 'user', name: 'alice', error: 'listed twice' },
      { kind: 'user', name: 'colon', error: 'password_crypt is not a SHA-512 crypt hash' },
      { kind: 'group', name: 'team', error: 'not users of this workspace, left out: ghost' },
    ]);
  });
});
