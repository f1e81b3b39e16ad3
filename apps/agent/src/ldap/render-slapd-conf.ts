// slapd.conf of one workspace's slapd (issue 17): the schemas core, cosine, inetorgperson and nis,
// one back_mdb database under the workspace's base DN, its certificate, and who may do what.
//
// TLS: `security ssf=128 simple_bind=128` refuses every operation but StartTLS itself on a
// connection without TLS (confidentialityRequired, 13), so a password never crosses the network
// in clear and neither does the directory, anonymous reads included. LDAPS or StartTLS with the
// workspace's own certificate; TLS 1.2 at least. The agent's ldapi socket counts as local
// (`localSSF 256`).
//
// Who may do what (first match wins, then the frontend's rootDSE and schema rules):
//   userPassword       only to check a bind (`auth`); nobody reads a hash, nobody changes one
//   everything else    the read-only bind account (cn=reader) and any bound user read;
//                      anonymous reads it while the entry cn=anonymous-read exists under the
//                      base (a `set` rule, looked up at each access), else nothing. The switch
//                      is an entry, not a line here, so turning it reaches the running slapd
//                      as a change of the directory, without a restart; nobody sees the entry.
//   writes             nobody: no rule grants `write`. The agent writes as the rootdn, which has
//                      no password: only SASL EXTERNAL over the ldapi socket as root maps to it
//                      (authz-regexp), and that socket is in the root-only LDAP folder.
//
// The alias (issue 36): a second suffix, `dc=<alias>,dc=debesis`, served by a `relay` database
// whose `rwm` overlay rewrites every DN from the alias to the base on the way in (a search's base
// and filter, a bind's DN) and back on the way out (entries' DNs, `member` values). The real
// database does the work and checks its own rules with the real DNs, so a bind under the alias is
// the same identity as under the base (ldapwhoami answers the base's DN). Entries are sent from
// the relay database, though, and slapd checks their read access there: without rules of its own
// it would send nothing, so it carries the same rules, written for the alias's DNs but naming the
// same reader and the same anonymous switch. The base entry's own `dc` value stays the service id.
//
// `dbnosync`: the database is a copy of the desired state, rebuilt from it whenever slapd starts
// (drivers/ldap.driver.ts), so a write lost in a crash costs nothing and each change is quicker.
import { slapdConf } from '../daemons/config-formats.ts';

export const LDAP_SCHEMAS = ['core', 'cosine', 'inetorgperson', 'nis'] as const;

/** The identity slapd gives root over ldapi with SASL EXTERNAL (its peer credentials). */
const ROOT_PEER = 'gidNumber=0\\+uidNumber=0,cn=peercred,cn=external,cn=auth';

export interface SlapdConfInput {
  base: string;
  /** The read-only bind account's DN. */
  reader: string;
  /** The entry whose presence lets anonymous clients read. */
  anonymousSwitch: string;
  /** The DN the agent acts as (the rootdn; no entry, no password). */
  agent: string;
  /** The workspace certificate and key, one PEM file. */
  certificate: string;
  /** A second suffix answering as `base` (relay + rwm); absent: none. */
  alias?: string | undefined;
  /** The back_mdb folder. */
  database: string;
  /** Debian's: /etc/ldap/schema and /usr/lib/ldap. */
  schemaDir?: string;
  moduleDir?: string;
}

/**
 * Who may do what under `suffix` (the base, or the alias that relays to it): the identities are
 * always the base's, as binds under either end up as the base's DNs.
 */
function accessRules(suffix: string, input: SlapdConfInput): string[] {
  const q = slapdConf.quoted;
  const anonymousSwitch = suffix === input.base ? input.anonymousSwitch : switchUnder(suffix, input);
  return [
    'access to attrs=userPassword by anonymous auth by * none',
    `access to dn.base=${q(anonymousSwitch)} by * none`,
    `access to dn.subtree=${q(suffix)}`,
    `  by dn.exact=${q(input.reader)} read`,
    '  by users read',
    `  by set=${q(`[${input.anonymousSwitch}]/objectClass`)} read`,
    '  by * none',
  ];
}

/** The anonymous switch's DN as seen under another suffix. */
function switchUnder(suffix: string, input: SlapdConfInput): string {
  const relative = input.anonymousSwitch.slice(0, input.anonymousSwitch.length - input.base.length);
  return `${relative}${suffix}`;
}

export function renderSlapdConf(input: SlapdConfInput): string {
  const q = slapdConf.quoted;
  const schemaDir = input.schemaDir ?? '/etc/ldap/schema';
  const alias = input.alias;
  return [
    '# Rendered by the debesis agent; changes are overwritten.',
    ...LDAP_SCHEMAS.map((schema) => `include ${q(`${schemaDir}/${schema}.schema`)}`),
    `modulepath ${q(input.moduleDir ?? '/usr/lib/ldap')}`,
    'moduleload back_mdb',
    ...(alias ? ['moduleload back_relay', 'moduleload rwm'] : []),
    '',
    `TLSCertificateFile ${q(input.certificate)}`,
    `TLSCertificateKeyFile ${q(input.certificate)}`,
    'TLSProtocolMin 3.3',
    'security ssf=128 simple_bind=128',
    'localSSF 256',
    'sizelimit 10000',
    `authz-regexp ${q(ROOT_PEER)} ${q(input.agent)}`,
    '',
    'access to dn.base="" by * read',
    'access to dn.base="cn=Subschema" by * read',
    '',
    'database mdb',
    `suffix ${q(input.base)}`,
    `rootdn ${q(input.agent)}`,
    `directory ${q(input.database)}`,
    'maxsize 268435456',
    'dbnosync',
    'index objectClass,uid,cn,memberUid,uidNumber,gidNumber eq',
    ...accessRules(input.base, input),
    '',
    ...(alias
      ? [
          'database relay',
          `suffix ${q(alias)}`,
          `relay ${q(input.base)}`,
          'overlay rwm',
          `rwm-suffixmassage ${q(input.base)}`,
          ...accessRules(alias, input),
          '',
        ]
      : []),
  ].join('\n');
}
