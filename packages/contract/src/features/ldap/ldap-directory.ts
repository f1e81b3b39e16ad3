// The names and rules of a workspace's LDAP directory that the API (config, status, checks of
// expiry dates) and the node (slapd) must agree on: where each entry lives and when an expiry
// date takes effect. The desired-state section itself is ldap-node.ts's ldapSectionSchema.
//
// Base DN: `dc=<service id>,dc=debesis`, from the service id rather than a name the owner picks:
// it never changes (a renamed service or account keeps every application's settings) and two
// workspaces never share one. Under it: `ou=people` (users, `uid=<name>`), `ou=groups` (groups,
// `cn=<name>`, and the workspace's default group `users`), and `cn=reader`, the read-only bind
// account for applications.
//
// Alias: the same directory may also answer under `dc=<alias>,dc=debesis` (issue 36), a name the
// owner reads and types. It is a lower-case DNS label (1–63 characters: letters, digits, inner
// hyphens), unique only within its workspace (each workspace has a slapd of its own), never the
// service id itself. The node serves it as a second suffix rewritten to the real one (a `relay`
// database with the `rwm` overlay): every DN under the alias is the same entry as under the base,
// binds included; the UUID base keeps working for the applications that use it. A new directory
// takes its alias from the service's name (ldapAliasFromName); the owner may change or clear it.
//
// Expiry: `expires_on` is a calendar date, `YYYY-MM-DD`; the user may bind through the whole of
// that day in the section's time zone (the seller's, Europe/Vilnius, as invoices' dates) and not
// from 00:00 of the next day there.

export const LDAP_DEFAULT_PORT = 389;
export const LDAPS_DEFAULT_PORT = 636;
export const LDAP_TIME_ZONE = 'Europe/Vilnius';
export const LDAP_DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

export interface LdapDirectoryNames {
  base: string;
  people: string;
  groups: string;
  /** The read-only bind account's DN. */
  reader: string;
}

/**
 * One value of a DN (RFC 4514 §2.4): `,+"\<>;=` escaped anywhere, a leading `#` or space and a
 * trailing space escaped, NUL as `\00`. Service ids and workspace names never need it; it is
 * here so that nothing can ever make a DN mean another.
 */
export function escapeDnValue(value: string): string {
  const escaped = value.replace(/[\\,+"<>;=]/g, (char) => `\\${char}`).replace(/\0/g, '\\00');
  // Neither `#` nor a space is escaped above, so the first and last characters are the value's own.
  const head = value.startsWith('#') || value.startsWith(' ') ? '\\' : '';
  if (value.length > 1 && value.endsWith(' ')) return `${head}${escaped.slice(0, -1)}\\ `;
  return head + escaped;
}

/** A lower-case DNS label: what an alias may be. */
export const LDAP_ALIAS_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
export const LDAP_ALIAS_MAX = 63;
/** The suffix under which a workspace's alias answers. */
export const ldapAliasBase = (alias: string) => `dc=${escapeDnValue(alias)},dc=debesis`;

/**
 * The alias a new directory gets from the service's name: letters without their accents,
 * lower-case, every other run of characters one hyphen, at most 63 characters; null when nothing
 * is left (a name of only punctuation or of another script) or it would be the service id.
 */
export function ldapAliasFromName(name: string, serviceId?: string): string | null {
  const slug = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+/, '')
    .slice(0, LDAP_ALIAS_MAX)
    .replace(/-+$/, '');
  return LDAP_ALIAS_PATTERN.test(slug) && slug !== serviceId?.toLowerCase() ? slug : null;
}

export function ldapDirectoryNames(serviceId: string): LdapDirectoryNames {
  const base = `dc=${escapeDnValue(serviceId)},dc=debesis`;
  return { base, people: `ou=people,${base}`, groups: `ou=groups,${base}`, reader: `cn=reader,${base}` };
}

export const ldapUserDn = (serviceId: string, user: string) =>
  `uid=${escapeDnValue(user)},${ldapDirectoryNames(serviceId).people}`;
export const ldapGroupDn = (serviceId: string, group: string) =>
  `cn=${escapeDnValue(group)},${ldapDirectoryNames(serviceId).groups}`;

/** A real calendar date `YYYY-MM-DD` (not 2025-02-30). */
export function isLdapDate(value: string): boolean {
  if (!LDAP_DATE_PATTERN.test(value)) return false;
  const [year, month, day] = value.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** An IANA time zone this runtime knows. */
export function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return value.length > 0;
  } catch {
    return false;
  }
}

/** One formatter per zone: making one costs far more than using it (200 users' expiries a pass). */
const wallClocks = new Map<string, Intl.DateTimeFormat>();

function wallClock(timeZone: string): Intl.DateTimeFormat {
  let format = wallClocks.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    wallClocks.set(timeZone, format);
  }
  return format;
}

/** How far `timeZone`'s wall clock is ahead of UTC at `instant`, ms. */
function zoneOffset(instant: number, timeZone: string): number {
  const parts = wallClock(timeZone).formatToParts(instant);
  const part = (type: Intl.DateTimeFormatPartTypes) =>
    Number(parts.find((entry) => entry.type === type)?.value);
  const wall = Date.UTC(
    part('year'),
    part('month') - 1,
    part('day'),
    part('hour'),
    part('minute'),
    part('second'),
  );
  return wall - Math.floor(instant / 1000) * 1000;
}

/**
 * The instant an expiry date takes effect: 00:00 of the day after `expiresOn` in `timeZone`
 * (from then on the user cannot bind).
 */
export function ldapExpiryInstant(expiresOn: string, timeZone: string = LDAP_TIME_ZONE): Date {
  const [year, month, day] = expiresOn.split('-').map(Number) as [number, number, number];
  const midnight = Date.UTC(year, month - 1, day + 1);
  // The offset at the guess, then again at the answer (a daylight-saving change near midnight).
  const guess = midnight - zoneOffset(midnight, timeZone);
  return new Date(midnight - zoneOffset(guess, timeZone));
}

/** Whether a user with this expiry date can no longer bind at `now`. */
export function ldapExpired(expiresOn: string | null, timeZone: string, now: Date): boolean {
  return expiresOn !== null && now.getTime() >= ldapExpiryInstant(expiresOn, timeZone).getTime();
}
