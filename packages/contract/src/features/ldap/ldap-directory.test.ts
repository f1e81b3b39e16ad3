import { describe, expect, it } from 'vitest';
import {
  escapeDnValue,
  isLdapDate,
  isTimeZone,
  LDAP_ALIAS_PATTERN,
  ldapAliasBase,
  ldapAliasFromName,
  ldapDirectoryNames,
  ldapExpired,
  ldapExpiryInstant,
  ldapGroupDn,
  ldapUserDn,
} from './ldap-directory.ts';
import { ldapSectionSchema } from './ldap-node.ts';

describe('the LDAP directory’s names', () => {
  it('derives the base from the service id, people and groups under it, the reader beside them', () => {
    const id = '3f0c2a1e-0000-4000-8000-000000000001';
    expect(ldapDirectoryNames(id)).toEqual({
      base: `dc=${id},dc=debesis`,
      people: `ou=people,dc=${id},dc=debesis`,
      groups: `ou=groups,dc=${id},dc=debesis`,
      reader: `cn=reader,dc=${id},dc=debesis`,
    });
    expect(ldapUserDn(id, 'alice')).toBe(`uid=alice,ou=people,dc=${id},dc=debesis`);
    expect(ldapGroupDn(id, 'team')).toBe(`cn=team,ou=groups,dc=${id},dc=debesis`);
  });

  it('makes a new directory’s alias from the service’s name: a lower-case DNS label, or none', () => {
    const id = '3f0c2a1e-0000-4000-8000-000000000001';
    expect(ldapAliasFromName('Biuro failai', id)).toBe('biuro-failai');
    expect(ldapAliasFromName('Ąžuolų  Šeima — 2026!', id)).toBe('azuolu-seima-2026');
    expect(ldapAliasFromName('--Team_X--', id)).toBe('team-x');
    expect(ldapAliasFromName('Доступ', id)).toBeNull();
    expect(ldapAliasFromName('!!!', id)).toBeNull();
    expect(ldapAliasFromName(id.toUpperCase(), id)).toBeNull();
    const long = ldapAliasFromName(`${'a'.repeat(62)}-b`, id);
    expect(long).toBe('a'.repeat(62));
    expect(ldapAliasFromName(`${'x'.repeat(70)}`, id)).toHaveLength(63);
    for (const alias of ['a', 'files', 'a-b-9', 'a'.repeat(63)])
      expect(LDAP_ALIAS_PATTERN.test(alias)).toBe(true);
    for (const alias of ['', '-a', 'a-', 'A', 'a_b', 'a.b', 'a'.repeat(64)])
      expect(LDAP_ALIAS_PATTERN.test(alias), alias).toBe(false);
    expect(ldapAliasBase('files')).toBe('dc=files,dc=debesis');
  });

  it('escapes a DN value so that it cannot add a component or an attribute (RFC 4514)', () => {
    expect(escapeDnValue('a,dc=evil')).toBe('a\\,dc\\=evil');
    expect(escapeDnValue('a+cn=x')).toBe('a\\+cn\\=x');
    expect(escapeDnValue('q"<>;\\')).toBe('q\\"\\<\\>\\;\\\\');
    expect(escapeDnValue('#hash')).toBe('\\#hash');
    expect(escapeDnValue(' lead and trail ')).toBe('\\ lead and trail\\ ');
    expect(escapeDnValue(' ')).toBe('\\ ');
    expect(escapeDnValue('nul\0')).toBe('nul\\00');
    expect(escapeDnValue('a#b c')).toBe('a#b c');
  });
});

describe('LDAP expiry dates', () => {
  it('accepts real calendar dates only', () => {
    expect(isLdapDate('2024-02-29')).toBe(true);
    expect(isLdapDate('2025-02-29')).toBe(false);
    expect(isLdapDate('2025-13-01')).toBe(false);
    expect(isLdapDate('2025-1-01')).toBe(false);
    expect(isLdapDate('2025-01-01T00:00:00Z')).toBe(false);
  });

  it('takes effect at 00:00 of the next day in the zone, in winter and in summer time', () => {
    // Vilnius: UTC+2 in winter, UTC+3 in summer.
    expect(ldapExpiryInstant('2025-01-15').toISOString()).toBe('2025-01-15T22:00:00.000Z');
    expect(ldapExpiryInstant('2025-07-15').toISOString()).toBe('2025-07-15T21:00:00.000Z');
    // The night the clocks go forward (30 March 2025) and back (26 October 2025).
    expect(ldapExpiryInstant('2025-03-29').toISOString()).toBe('2025-03-29T22:00:00.000Z');
    expect(ldapExpiryInstant('2025-03-30').toISOString()).toBe('2025-03-30T21:00:00.000Z');
    expect(ldapExpiryInstant('2025-10-26').toISOString()).toBe('2025-10-26T22:00:00.000Z');
    expect(ldapExpiryInstant('2025-01-15', 'UTC').toISOString()).toBe('2025-01-16T00:00:00.000Z');
    expect(ldapExpiryInstant('2025-01-15', 'America/New_York').toISOString()).toBe(
      '2025-01-16T05:00:00.000Z',
    );
  });

  it('a user may bind through the whole of the day and not a moment after', () => {
    const zone = 'Europe/Vilnius';
    expect(ldapExpired('2025-01-15', zone, new Date('2025-01-15T21:59:59.999Z'))).toBe(false);
    expect(ldapExpired('2025-01-15', zone, new Date('2025-01-15T22:00:00.000Z'))).toBe(true);
    expect(ldapExpired(null, zone, new Date('2100-01-01T00:00:00Z'))).toBe(false);
  });

  it('the section refuses a malformed date and an unknown zone, and fills its defaults', () => {
    expect(isTimeZone('Europe/Vilnius')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
    expect(ldapSectionSchema.parse({ enabled: true })).toEqual({
      enabled: true,
      port: 389,
      ldaps_port: 636,
      bind_password_crypt: null,
      anonymous_read: false,
      time_zone: 'Europe/Vilnius',
      users: [],
      alias: null,
    });
    expect(ldapSectionSchema.safeParse({ enabled: true, alias: 'Files' }).success).toBe(false);
    expect(
      ldapSectionSchema.safeParse({ enabled: true, users: [{ name: 'alice', expires_on: '2025-02-30' }] })
        .success,
    ).toBe(false);
    expect(ldapSectionSchema.safeParse({ enabled: true, time_zone: 'Mars/Olympus' }).success).toBe(false);
    expect(ldapSectionSchema.parse({ enabled: true, users: [{ name: 'alice' }] }).users).toEqual([
      { name: 'alice', suspended: false, expires_on: null },
    ]);
  });
});
