import { describe, expect, it } from 'vitest';
import { ldapDirectoryNames, WORKSPACE_ID_FIRST_BASE, type LdapUserState } from '@debesis/contract';
import { validateAccounts } from '../accounts/validate-accounts.ts';
import { ldif } from '../daemons/config-formats.ts';
import { desiredUser, desiredWorkspace } from '../testing/desired.ts';
import {
  anonymousSwitchDn,
  directoryChanges,
  parseLdif,
  renderDirectory,
  renderLdif,
  type LdapEntry,
} from './render-directory.ts';

const B = WORKSPACE_ID_FIRST_BASE;
const ID = 'svc-1';
const NAMES = ldapDirectoryNames(ID);
const NOW = new Date('2025-01-15T12:00:00Z');
const CRYPT = (name: string) => `$6$salt$${name}hash`;

function workspace(users: LdapUserState[] = [], extra: { anonymous?: boolean; reader?: boolean } = {}) {
  const desired = {
    ...desiredWorkspace({
      service_id: ID,
      users: [
        { ...desiredUser('alice', B + 1), password_crypt: CRYPT('alice') },
        { ...desiredUser('bob', B + 2, { primary_gid: B + 10 }), password_crypt: CRYPT('bob') },
        { ...desiredUser('carol', B + 3, { active: false }), password_crypt: CRYPT('carol') },
      ],
      groups: [{ name: 'team', gid: B + 10, members: ['bob', 'alice'] }],
    }),
    ldap: {
      enabled: true,
      port: 389,
      ldaps_port: 636,
      bind_password_crypt: extra.reader === false ? null : '$6$r$readerhash',
      anonymous_read: extra.anonymous ?? false,
      time_zone: 'Europe/Vilnius',
      users,
      alias: null,
    },
  };
  return renderDirectory(desired, validateAccounts(desired), NOW);
}

const entry = (entries: LdapEntry[], dn: string) => entries.find((candidate) => candidate.dn === dn);
const attribute = (found: LdapEntry | undefined, name: string) =>
  found?.attributes.find(([other]) => other === name)?.[1];
const userDn = (name: string) => `uid=${name},${NAMES.people}`;

describe('the directory of a workspace', () => {
  it('holds every user as posixAccount + inetOrgPerson with ids from the block, every group as posixGroup', () => {
    const { entries, users, groups, failures } = workspace();
    expect(entries.map((e) => e.dn)).toEqual([
      NAMES.base,
      NAMES.people,
      NAMES.groups,
      NAMES.reader,
      userDn('alice'),
      userDn('bob'),
      userDn('carol'),
      `cn=users,${NAMES.groups}`,
      `cn=team,${NAMES.groups}`,
    ]);
    expect(entry(entries, userDn('bob'))?.attributes).toEqual([
      ['objectClass', ['top', 'inetOrgPerson', 'posixAccount', 'shadowAccount']],
      ['uid', ['bob']],
      ['cn', ['bob']],
      ['sn', ['bob']],
      ['uidNumber', [String(B + 2)]],
      ['gidNumber', [String(B + 10)]],
      ['homeDirectory', ['/home/bob']],
      ['loginShell', ['/usr/sbin/nologin']],
      ['userPassword', [`{CRYPT}${CRYPT('bob')}`]],
    ]);
    expect(entry(entries, `cn=team,${NAMES.groups}`)?.attributes).toEqual([
      ['objectClass', ['top', 'posixGroup']],
      ['cn', ['team']],
      ['gidNumber', [String(B + 10)]],
      ['memberUid', ['alice', 'bob']],
    ]);
    expect(attribute(entry(entries, `cn=users,${NAMES.groups}`), 'gidNumber')).toEqual([String(B)]);
    expect(attribute(entry(entries, NAMES.reader), 'userPassword')).toEqual(['{CRYPT}$6$r$readerhash']);
    expect({ users, groups, failures }).toEqual({ users: 3, groups: 2, failures: [] });
  });

  it('a suspended, an expired and an inactive user have no password and shadowExpire 1; the others bind', () => {
    const { entries, locked, nextExpiry } = workspace([
      { name: 'alice', suspended: true, expires_on: null },
      { name: 'bob', suspended: false, expires_on: '2025-01-14' },
    ]);
    expect(locked).toEqual(['alice', 'bob', 'carol']);
    for (const name of ['alice', 'bob', 'carol']) {
      expect(attribute(entry(entries, userDn(name)), 'userPassword'), name).toBeUndefined();
      expect(attribute(entry(entries, userDn(name)), 'shadowExpire'), name).toEqual(['1']);
    }
    expect(nextExpiry).toBeUndefined();
  });

  it('an expiry ahead keeps the password, says the day in shadowExpire and when it takes effect', () => {
    const { entries, locked, nextExpiry } = workspace([
      { name: 'alice', suspended: false, expires_on: '2025-01-15' },
      { name: 'bob', suspended: false, expires_on: '2025-02-01' },
    ]);
    expect(locked).toEqual(['carol']);
    const alice = entry(entries, userDn('alice'));
    expect(attribute(alice, 'userPassword')).toEqual([`{CRYPT}${CRYPT('alice')}`]);
    // 2025-01-15 is day 20103 since 1970-01-01: expired from day 20104 (shadow(5)).
    expect(attribute(alice, 'shadowExpire')).toEqual(['20104']);
    expect(nextExpiry).toBe('2025-01-15T22:00:00.000Z');
  });

  it('no reader without its password; anonymous reads are an entry of their own', () => {
    expect(entry(workspace([], { reader: false }).entries, NAMES.reader)).toBeUndefined();
    expect(entry(workspace().entries, anonymousSwitchDn(NAMES.base))).toBeUndefined();
    expect(entry(workspace([], { anonymous: true }).entries, anonymousSwitchDn(NAMES.base))).toBeDefined();
  });

  it('a flag for somebody who is not a user, or twice, is a failure of that LDAP user', () => {
    const { failures } = workspace([
      { name: 'zed', suspended: true, expires_on: null },
      { name: 'alice', suspended: true, expires_on: null },
      { name: 'alice', suspended: false, expires_on: null },
    ]);
    expect(failures).toEqual([
      { kind: 'ldap_user', name: 'zed', error: 'not a user of this workspace' },
      { kind: 'ldap_user', name: 'alice', error: 'listed twice' },
    ]);
  });
});

describe('LDIF', () => {
  it('writes a value that is not a safe string base64, so it can add no line and no attribute', () => {
    expect(ldif.line('cn', 'plain value')).toBe('cn: plain value');
    expect(ldif.line('cn', '')).toBe('cn: ');
    const b64 = (value: string) => `cn:: ${Buffer.from(value, 'utf8').toString('base64')}`;
    for (const value of [
      'two\nlines',
      'cr\rhere',
      'x\nuserPassword: evil',
      ':colon first',
      '<file:///etc/shadow',
      ' leading space',
      'trailing space ',
      'Žemaitė',
      'nul\0byte',
    ])
      expect(ldif.line('cn', value), JSON.stringify(value)).toBe(b64(value));
    expect(() => ldif.line('cn\nx', 'v')).toThrow(/not an LDIF name/);
  });

  it('round-trips entries through renderLdif and parseLdif, escaped DNs and awkward values included', () => {
    const entries: LdapEntry[] = [
      {
        dn: 'cn=a\\,b\\+c,ou=groups,dc=x,dc=debesis',
        attributes: [
          ['objectClass', ['top', 'posixGroup']],
          ['description', ['line one\nline two', ':odd', 'Šiauliai ']],
        ],
      },
      { dn: 'dc=x,dc=debesis', attributes: [['dc', ['x']]] },
    ];
    const text = renderLdif(entries);
    expect(text).toContain('dn: cn=a\\,b\\+c,ou=groups,dc=x,dc=debesis\n');
    expect(text).not.toMatch(/^line two/m);
    expect(parseLdif(text)).toEqual(entries);
  });

  it('reads ldapsearch output: comments, folded lines, base64 DNs', () => {
    const dn = 'uid=žana,ou=people,dc=x,dc=debesis';
    const text = [
      '# a comment',
      `dn:: ${Buffer.from(dn).toString('base64')}`,
      'objectClass: top',
      'description: a long',
      '  folded value',
      'objectClass: person',
      '',
    ].join('\n');
    expect(parseLdif(text)).toEqual([
      {
        dn,
        attributes: [
          ['objectClass', ['top', 'person']],
          ['description', ['a long folded value']],
        ],
      },
    ]);
  });
});

describe('the changes from one directory to another', () => {
  it('none when they hold the same (value order aside)', () => {
    const { entries } = workspace();
    expect(directoryChanges(entries, entries)).toBe('');
    const reordered = entries.map((e) => ({
      ...e,
      attributes: e.attributes.map(([n, v]) => [n, [...v].reverse()] as [string, string[]]),
    }));
    expect(directoryChanges(reordered, entries)).toBe('');
  });

  it('a suspension takes the password away and sets shadowExpire, in one modify with replaces', () => {
    const before = workspace().entries;
    const after = workspace([{ name: 'alice', suspended: true, expires_on: null }]).entries;
    expect(directoryChanges(before, after)).toBe(
      [
        `dn: ${userDn('alice')}`,
        'changetype: modify',
        'replace: shadowExpire',
        'shadowExpire: 1',
        '-',
        'replace: userPassword',
        '-',
        '',
      ].join('\n'),
    );
  });

  it('a renamed group is deleted and added; gone entries go deepest first, new ones come parents first', () => {
    const base: LdapEntry = { dn: 'dc=x,dc=debesis', attributes: [['dc', ['x']]] };
    const ou: LdapEntry = { dn: 'ou=groups,dc=x,dc=debesis', attributes: [['ou', ['groups']]] };
    const group = (name: string): LdapEntry => ({
      dn: `cn=${name},ou=groups,dc=x,dc=debesis`,
      attributes: [['cn', [name]]],
    });
    const changes = directoryChanges([group('team'), base, ou], [base, ou, group('crew')]);
    expect(changes).toBe(
      [
        'dn: cn=team,ou=groups,dc=x,dc=debesis',
        'changetype: delete',
        '',
        'dn: cn=crew,ou=groups,dc=x,dc=debesis',
        'changetype: add',
        'cn: crew',
        '',
      ].join('\n'),
    );
    const fresh = directoryChanges([], [group('crew'), ou, base]);
    expect(fresh.indexOf('dn: dc=x')).toBeLessThan(fresh.indexOf('dn: ou=groups'));
    expect(fresh.indexOf('dn: ou=groups')).toBeLessThan(fresh.indexOf('dn: cn=crew'));
    const gone = directoryChanges([base, ou, group('crew')], [base]);
    expect(gone.indexOf('dn: cn=crew')).toBeLessThan(gone.indexOf('dn: ou=groups'));
  });

  it('a changed value in a change record is escaped like any other', () => {
    const before: LdapEntry[] = [{ dn: 'dc=x,dc=debesis', attributes: [['o', ['x']]] }];
    const after: LdapEntry[] = [{ dn: 'dc=x,dc=debesis', attributes: [['o', ['x\nchangetype: delete']]] }];
    expect(directoryChanges(before, after)).toBe(
      `dn: dc=x,dc=debesis\nchangetype: modify\nreplace: o\no:: ${Buffer.from('x\nchangetype: delete').toString('base64')}\n-\n`,
    );
  });
});
