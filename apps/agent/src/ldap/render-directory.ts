// A workspace's directory as LDAP entries (issue 17): what its slapd must hold, computed from the
// desired state and the time, and the changes that take a directory from what it holds to that.
//
//   dc=<service id>,dc=debesis        the base (contract ldap-directory.ts says why the id)
//     ou=people                       every workspace user: uid=<name>, inetOrgPerson +
//                                     posixAccount + shadowAccount, uid/gid from the id block
//     ou=groups                       every group: cn=<name>, posixGroup with memberUid; and
//                                     `users` (gid id_base), every user's default group
//     cn=reader                       the read-only bind account, when it has a password
//     cn=anonymous-read               while anonymous reads are allowed (render-slapd-conf.ts)
//
// Who can bind: a user who is active, not suspended and not past the end of their expiry date has
// `userPassword: {CRYPT}<their SHA-512 crypt>` (slapd checks it with crypt(3)); anyone else has
// no userPassword at all, so every bind as them is refused like a wrong password, and their
// entry (and group memberships) stays for the applications that list it. `shadowExpire` says
// the same to clients that read it (sssd, pam_ldap): 1 (long past) while locked, the day after
// the expiry date (days since 1970-01-01) while it is ahead. An expiry that passes while nothing
// else changes is the definition's drift (`nextExpiry`), so the next pass takes the password away.
//
// Deterministic: the same desired state and the same side of every expiry render the same bytes,
// so an unchanged workspace changes nothing.
import {
  ldapDirectoryNames,
  ldapExpired,
  ldapExpiryInstant,
  ldapGroupDn,
  ldapUserDn,
  type ResourceFailure,
  type WorkspaceDesiredState,
} from '@debesis/contract';
import { DEFAULT_GROUP_NAME, NO_SHELL } from '../accounts/render-accounts.ts';
import type { WorkspaceAccounts } from '../accounts/validate-accounts.ts';
import { ldif } from '../daemons/config-formats.ts';

export const LDAP_USER_KIND = 'ldap_user';

/** The entry whose presence lets clients that do not bind read (render-slapd-conf.ts). */
export const anonymousSwitchDn = (base: string) => `cn=anonymous-read,${base}`;

/** An entry: its DN and its attributes, each with its values, in the order they are written. */
export interface LdapEntry {
  dn: string;
  attributes: Array<[name: string, values: string[]]>;
}

export interface DirectoryRendering {
  entries: LdapEntry[];
  /** Users in the directory who cannot bind now, by name (sorted). */
  locked: string[];
  users: number;
  groups: number;
  /** The next instant an expiry takes effect (ISO), or undefined: none ahead. */
  nextExpiry?: string;
  failures: ResourceFailure[];
}

const DAY_MS = 86_400_000;

/** The directory `desired` asks for at `now`, from its accounts as validated (validateAccounts). */
export function renderDirectory(
  desired: WorkspaceDesiredState,
  accounts: WorkspaceAccounts,
  now: Date,
): DirectoryRendering {
  const ldap = desired.ldap;
  const names = ldapDirectoryNames(desired.service_id);
  const failures: ResourceFailure[] = [];
  const flags = new Map<string, { suspended: boolean; expires_on: string | null }>();
  const known = new Set(accounts.users.map((user) => user.name));
  for (const user of ldap?.users ?? []) {
    if (flags.has(user.name)) failures.push({ kind: LDAP_USER_KIND, name: user.name, error: 'listed twice' });
    else if (!known.has(user.name))
      failures.push({ kind: LDAP_USER_KIND, name: user.name, error: 'not a user of this workspace' });
    else flags.set(user.name, { suspended: user.suspended, expires_on: user.expires_on });
  }
  const timeZone = ldap?.time_zone ?? 'Europe/Vilnius';

  const entries: LdapEntry[] = [
    {
      dn: names.base,
      attributes: [
        ['objectClass', ['top', 'dcObject', 'organization']],
        ['dc', [desired.service_id]],
        ['o', [desired.service_id]],
      ],
    },
    {
      dn: names.people,
      attributes: [
        ['objectClass', ['top', 'organizationalUnit']],
        ['ou', ['people']],
      ],
    },
    {
      dn: names.groups,
      attributes: [
        ['objectClass', ['top', 'organizationalUnit']],
        ['ou', ['groups']],
      ],
    },
  ];
  if (ldap?.bind_password_crypt)
    entries.push({
      dn: names.reader,
      attributes: [
        ['objectClass', ['top', 'organizationalRole', 'simpleSecurityObject']],
        ['cn', ['reader']],
        ['description', ['Read-only bind account for applications']],
        ['userPassword', [`{CRYPT}${ldap.bind_password_crypt}`]],
      ],
    });

  if (ldap?.anonymous_read)
    entries.push({
      dn: anonymousSwitchDn(names.base),
      attributes: [
        ['objectClass', ['top', 'applicationProcess']],
        ['cn', ['anonymous-read']],
        ['description', ['While this entry exists, clients that do not bind may read the directory']],
      ],
    });

  const locked: string[] = [];
  let nextExpiry: number | undefined;
  for (const user of accounts.users) {
    const { suspended, expires_on } = flags.get(user.name) ?? { suspended: false, expires_on: null };
    const expired = ldapExpired(expires_on, timeZone, now);
    const canBind = user.active && !suspended && !expired;
    let shadowExpire: number | undefined;
    if (!canBind) {
      locked.push(user.name);
      shadowExpire = 1;
    } else if (expires_on !== null) {
      const instant = ldapExpiryInstant(expires_on, timeZone).getTime();
      nextExpiry = Math.min(nextExpiry ?? instant, instant);
      shadowExpire = Math.floor(Date.parse(`${expires_on}T00:00:00Z`) / DAY_MS) + 1;
    }
    entries.push({
      dn: ldapUserDn(desired.service_id, user.name),
      attributes: [
        ['objectClass', ['top', 'inetOrgPerson', 'posixAccount', 'shadowAccount']],
        ['uid', [user.name]],
        ['cn', [user.name]],
        ['sn', [user.name]],
        ['uidNumber', [String(user.uid)]],
        ['gidNumber', [String(user.gid)]],
        ['homeDirectory', [`/home/${user.name}`]],
        ['loginShell', [NO_SHELL]],
        ...(canBind ? [['userPassword', [`{CRYPT}${user.passwordCrypt}`]] as [string, string[]]] : []),
        ...(shadowExpire !== undefined
          ? [['shadowExpire', [String(shadowExpire)]] as [string, string[]]]
          : []),
      ],
    });
  }

  const groups = [
    {
      name: DEFAULT_GROUP_NAME,
      gid: accounts.defaultGid,
      members: accounts.users.map((user) => user.name).sort(),
    },
    ...accounts.groups,
  ];
  for (const group of groups)
    entries.push({
      dn: ldapGroupDn(desired.service_id, group.name),
      attributes: [
        ['objectClass', ['top', 'posixGroup']],
        ['cn', [group.name]],
        ['gidNumber', [String(group.gid)]],
        ...(group.members.length > 0 ? [['memberUid', group.members] as [string, string[]]] : []),
      ],
    });

  return {
    entries,
    locked: locked.sort(),
    users: accounts.users.length,
    groups: groups.length,
    ...(nextExpiry !== undefined ? { nextExpiry: new Date(nextExpiry).toISOString() } : {}),
    failures,
  };
}

/** Entries as LDIF content records (slapadd's input, and the record of what a directory holds). */
export function renderLdif(entries: readonly LdapEntry[]): string {
  return entries
    .map((entry) =>
      [
        ldif.line('dn', entry.dn),
        ...entry.attributes.flatMap(([name, values]) => values.map((value) => ldif.line(name, value))),
      ].join('\n'),
    )
    .map((record) => `${record}\n`)
    .join('\n');
}

/**
 * LDIF content records as entries: what renderLdif writes and what `ldapsearch -LLL` prints
 * (folded lines, `::` base64 values, comments). Change records are not read.
 */
export function parseLdif(text: string): LdapEntry[] {
  const entries: LdapEntry[] = [];
  let current: LdapEntry | undefined;
  const lines: string[] = [];
  for (const raw of text.split(/\r?\n/)) {
    // A line starting with one space continues the one before (RFC 2849 folding).
    if (raw.startsWith(' ') && lines.length > 0) lines[lines.length - 1] += raw.slice(1);
    else lines.push(raw);
  }
  for (const line of lines) {
    if (line === '') {
      current = undefined;
      continue;
    }
    if (line.startsWith('#')) continue;
    const match = /^([A-Za-z][A-Za-z0-9;-]*)(::?) ?(.*)$/.exec(line);
    if (!match) throw new Error(`not an LDIF line: ${JSON.stringify(line.slice(0, 80))}`);
    const [, name, separator, rest] = match as unknown as [string, string, string, string];
    const value = separator === '::' ? Buffer.from(rest, 'base64').toString('utf8') : rest;
    if (name.toLowerCase() === 'dn') {
      current = { dn: value, attributes: [] };
      entries.push(current);
      continue;
    }
    if (!current) throw new Error(`an LDIF attribute before any dn: ${name}`);
    const attribute = current.attributes.find(([existing]) => existing.toLowerCase() === name.toLowerCase());
    if (attribute) attribute[1].push(value);
    else current.attributes.push([name, [value]]);
  }
  return entries;
}

/** A DN's key for comparing (attribute names and values of our DNs compare case-insensitively). */
const dnKey = (dn: string) => dn.toLowerCase();
const depth = (dn: string) => dn.split(/(?<!\\),/).length;
const sameValues = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && [...a].sort().every((value, index) => value === [...b].sort()[index]);

/**
 * The LDIF change records (for ldapmodify) that turn `current` into `wanted`; '' when they are
 * the same. Entries gone are deleted (deepest first), new ones added (parents first), and an entry
 * in both gets one modify with a `replace` per attribute that differs (no values: the attribute
 * goes). A renamed group is the old one deleted and the new one added.
 */
export function directoryChanges(current: readonly LdapEntry[], wanted: readonly LdapEntry[]): string {
  const before = new Map(current.map((entry) => [dnKey(entry.dn), entry]));
  const after = new Map(wanted.map((entry) => [dnKey(entry.dn), entry]));
  const records: string[] = [];
  const deleted = current.filter((entry) => !after.has(dnKey(entry.dn)));
  for (const entry of deleted.sort((a, b) => depth(b.dn) - depth(a.dn)))
    records.push([ldif.line('dn', entry.dn), 'changetype: delete'].join('\n'));
  const added = wanted.filter((entry) => !before.has(dnKey(entry.dn)));
  for (const entry of [...added].sort((a, b) => depth(a.dn) - depth(b.dn)))
    records.push(
      [
        ldif.line('dn', entry.dn),
        'changetype: add',
        ...entry.attributes.flatMap(([name, values]) => values.map((value) => ldif.line(name, value))),
      ].join('\n'),
    );
  for (const entry of wanted) {
    const old = before.get(dnKey(entry.dn));
    if (!old) continue;
    const values = (attributes: LdapEntry['attributes'], name: string) =>
      attributes.find(([other]) => other.toLowerCase() === name.toLowerCase())?.[1] ?? [];
    const names = [
      ...entry.attributes.map(([name]) => name),
      ...old.attributes
        .map(([name]) => name)
        .filter((name) => !entry.attributes.some(([other]) => other.toLowerCase() === name.toLowerCase())),
    ];
    const changes = names
      .filter((name) => !sameValues(values(old.attributes, name), values(entry.attributes, name)))
      .map((name) =>
        [
          `replace: ${name}`,
          ...values(entry.attributes, name).map((value) => ldif.line(name, value)),
          '-',
        ].join('\n'),
      );
    if (changes.length > 0)
      records.push([ldif.line('dn', entry.dn), 'changetype: modify', ...changes].join('\n'));
  }
  return records.map((record) => `${record}\n`).join('\n');
}
