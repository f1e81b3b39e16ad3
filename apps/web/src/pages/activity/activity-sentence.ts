// What an activity entry's details say, as one sentence in the reader's language ("Changed:
// language and theme", "New service: MINI, 12,10 €"), never the raw "fields: language". Shared by
// the account's activity page and a service's Activity tab, for activity entries and for the
// lines of a service's log (the management lines are activity entries; the node's lines are
// codes of NODE_LOG_CODES with their params). Pure: texts, language and plan names come in.
import {
  cardBrandName,
  FEATURE_ACTION_SENTENCES,
  type ActivityAction,
  type ActivitySentence,
  type FeatureSentenceAction,
} from '@debesis/contract';
import type { TFunction } from 'i18next';
import { activityEn } from '../../i18n/activity.en.ts';
import { diskSize, money, numberLocale } from '../plans/format.ts';
import { actionKey } from './activity-actions.ts';
import { formatDateTime } from './relative-time.ts';

export interface SentenceContext {
  t: TFunction<'activity'>;
  language: string;
  /** A plan's name by its product id (the id itself until the catalogue is loaded). */
  planName: (productId: string) => string;
}

type Details = Record<string, unknown>;
type Values = typeof activityEn.values;
type WordGroup = Exclude<keyof Values, 'status'> | 'status';

const text = (value: unknown): string | null =>
  typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : null;
const amount = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? value : null;

/** A word of a group in the reader's language; a value the texts do not list, as recorded. */
export function word(context: SentenceContext, group: WordGroup, value: string): string {
  const words: Record<string, string> = activityEn.values[group];
  if (!Object.hasOwn(words, value)) return value;
  return context.t(`values.${group}.${value}` as 'values.kind.new');
}

/** "language, theme and phone" / "kalba, tema ir telefonas". */
export function joinWords(items: readonly string[], language: string): string {
  return new Intl.ListFormat(numberLocale(language), { type: 'conjunction' }).format(items);
}

function fieldList(context: SentenceContext, fields: unknown): string | null {
  if (!Array.isArray(fields)) return null;
  const names = fields.filter((field): field is string => typeof field === 'string');
  if (names.length === 0) return null;
  return joinWords(
    names.map((field) => word(context, 'field', field)),
    context.language,
  );
}

function method(context: SentenceContext, value: unknown): string | null {
  const name = text(value);
  if (!name) return null;
  // Sign-ins with an identity provider are recorded as `oauth:<provider>`.
  if (name.startsWith('oauth:')) return word(context, 'provider', name.slice('oauth:'.length));
  return word(context, 'method', name);
}

function when(context: SentenceContext, value: unknown): string | null {
  const at = text(value);
  if (!at || Number.isNaN(Date.parse(at))) return null;
  return formatDateTime(new Date(at), context.language);
}

const RIGHTS = ['read', 'write', 'execute', 'admin'] as const;

function rights(context: SentenceContext, details: Details): string | null {
  const granted = RIGHTS.filter((right) => details[right] === true);
  if (granted.length === 0) return null;
  return joinWords(
    granted.map((right) => context.t(`values.right.${right}`)),
    context.language,
  );
}

/** Every part present, or null (the sentence needs them all). */
function all<T extends Record<string, string | null>>(parts: T): { [K in keyof T]: string } | null {
  return Object.values(parts).every((part) => part !== null) ? (parts as { [K in keyof T]: string }) : null;
}

/** "Extension: MINI, €12.10": an order's kind, plan and amount. */
function orderSentence(d: Details, c: SentenceContext): string | null {
  const parts = all({ kind: text(d.kind), plan: text(d.product_id) });
  const paid = amount(d.amount);
  if (!parts || paid === null) return null;
  return c.t('sentences.orderCreated', {
    kind: word(c, 'kind', parts.kind),
    plan: c.planName(parts.plan),
    amount: money(paid, c.language),
  });
}

/**
 * The sentence of each known action from its details; null where the action says it all or the
 * details lack what the sentence needs.
 */
const SENTENCES: Record<
  Exclude<ActivityAction, FeatureSentenceAction>,
  (details: Details, context: SentenceContext) => string | null
> = {
  'user logged in': (d, c) => {
    const how = method(c, d.method);
    return how ? c.t('sentences.signedInWith', { method: how }) : null;
  },
  'account created': (d, c) => {
    const type = text(d.account_type);
    if (!type) return null;
    const how = method(c, d.method);
    const named = word(c, 'accountType', type);
    return how
      ? c.t('sentences.accountCreatedWith', { type: named, method: how })
      : c.t('sentences.accountCreated', { type: named });
  },
  'email verified': () => null,
  'password changed': () => null,
  'settings updated': (d, c) => {
    const parts: string[] = [];
    const renamed = all({ from: text(d.from), to: text(d.to) });
    if (renamed) parts.push(c.t('sentences.renamed', renamed));
    const fields = fieldList(c, d.fields);
    if (fields) parts.push(c.t('sentences.changed', { fields }));
    return parts.length > 0 ? parts.join('. ') : null;
  },
  'account converted to business': (d, c) => {
    const name = text(d.business_name);
    return name ? c.t('sentences.business', { name }) : null;
  },
  'company details corrected': (d, c) => {
    const name = text(d.business_name);
    return name ? c.t('sentences.companyCorrected', { name }) : null;
  },
  'OAuth identity linked': (d, c) => {
    const linked = all({ provider: text(d.provider), email: text(d.email) });
    if (!linked) return null;
    const provider = word(c, 'provider', linked.provider);
    const parts = [c.t('sentences.identityLinked', { provider, email: linked.email })];
    if (d.email_verified_by_provider === true) {
      const verified = c.t('sentences.identityVerified', { provider });
      parts.push(
        d.password_removed === true
          ? joinWords([verified, c.t('sentences.passwordRemoved')], c.language)
          : verified,
      );
    }
    return parts.join('. ');
  },
  'session revoked: a used refresh token was presented again': () => null,
  'billing info updated': (d, c) => {
    if (typeof d.company !== 'boolean') return null;
    return c.t(d.company ? 'sentences.billingCompany' : 'sentences.billingPerson');
  },
  'order created': (d, c) => orderSentence(d, c),
  // The same facts as when it was made: what the cancelled order would have bought, for how much.
  'order cancelled': (d, c) => orderSentence(d, c),
  'email change requested': (d, c) => {
    const email = text(d.new_email);
    return email ? c.t('sentences.emailChangeRequested', { email }) : null;
  },
  'email changed': (d, c) => {
    const email = text(d.new_email);
    return email ? c.t('sentences.emailChanged', { email }) : null;
  },
  // Which sign-in it ended is an internal id: the action says what happened.
  'session signed out': () => null,
  'payment completed': (d, c) => {
    const paid = amount(d.amount);
    const provider = text(d.provider);
    if (paid === null || !provider) return null;
    return c.t('sentences.paymentCompleted', {
      amount: money(paid, c.language),
      provider: word(c, 'provider', provider),
    });
  },
  'payment credited': (d, c) => {
    const paid = amount(d.amount);
    const credit = amount(d.credit);
    if (paid === null || credit === null) return null;
    return c.t('sentences.paymentCredited', {
      amount: money(paid, c.language),
      credit: money(credit, c.language),
    });
  },
  'payment refused': (d, c) => {
    const reason = text(d.reason);
    return reason ? c.t('sentences.paymentRefused', { reason: word(c, 'reason', reason) }) : null;
  },
  'payment method saved': (d, c) => card(d, c),
  'payment method removed': (d, c) => card(d, c),
  'renewal failed': (d, c) => {
    const attempt = amount(d.attempt);
    return attempt === null ? null : c.t('sentences.renewalFailed', { attempt });
  },
  'payment refunded': (d, c) => {
    const paid = amount(d.amount);
    return paid === null ? null : c.t('sentences.paymentRefunded', { amount: money(paid, c.language) });
  },
  'plan change ordered': (d, c) => planChange(d, c),
  'plan change waiting for room': (d, c) => planChange(d, c),
  'plan changed': (d, c) => planChange(d, c),
  'plan change credit granted': (d, c) => {
    const credit = amount(d.credit);
    const disk = amount(d.disk_space);
    if (credit === null || disk === null) return null;
    return c.t('sentences.creditGranted', {
      amount: money(credit, c.language),
      disk: diskSize(disk, c.language),
    });
  },
  'plan change reverted': (d, c) => {
    const plan = text(d.restored_plan);
    const disk = amount(d.restored_disk_space);
    if (!plan || disk === null) return null;
    return c.t('sentences.reverted', { plan: c.planName(plan), disk: diskSize(disk, c.language) });
  },
  'service placed': (d, c) => {
    const address = text(d.address);
    return address ? c.t('sentences.placed', { address }) : null;
  },
  'service waiting for resources': () => null,
  'service created': (d, c) => {
    const address = text(d.address);
    return address ? c.t('sentences.created', { address }) : null;
  },
  'service started': () => null,
  'service stopped': () => null,
  'service restarted': () => null,
  'service cancelled': () => null,
  'service expired': (d, c) => {
    const date = when(c, d.valid_until);
    return date ? c.t('sentences.expired', { date }) : null;
  },
  'service quarantined': (d, c) => {
    const date = when(c, d.terminates_at);
    return date ? c.t('sentences.quarantined', { date }) : null;
  },
  'service terminated': (d, c) => {
    if (d.by === 'owner') return c.t('sentences.terminatedByOwner');
    if (d.by === 'lifecycle') return c.t('sentences.terminatedByLifecycle');
    return null;
  },
  'service restored': (d, c) => {
    const from = text(d.from);
    const date = when(c, d.valid_until);
    if (!from || !date) return null;
    return c.t('sentences.restored', { status: word(c, 'status', from), date });
  },
  'service suspended': (d, c) => {
    const reason = text(d.reason);
    return reason ? c.t('sentences.suspendedBySupport', { reason }) : null;
  },
  'service reactivated': () => null,
  'service failed over': (d, c) => {
    const nodes = all({ from: text(d.from), to: text(d.to) });
    if (!nodes) return null;
    const parts = [c.t('sentences.failedOver', nodes)];
    const date = when(c, d.replica_taken_at);
    if (date) parts.push(c.t('sentences.dataAsOf', { date }));
    return parts.join('. ');
  },
  'service moved': (d, c) => {
    const nodes = all({ from: text(d.from), to: text(d.to) });
    return nodes ? c.t('sentences.moved', nodes) : null;
  },
  'user created': (d, c) => named(c, 'sentences.user', d.name),
  'user updated': (d, c) => changedNamed(c, 'sentences.userChanged', 'sentences.user', d),
  'user password changed': (d, c) => named(c, 'sentences.user', d.name),
  'user deleted': (d, c) => named(c, 'sentences.user', d.name),
  'user activated': (d, c) => named(c, 'sentences.user', d.name),
  'user deactivated': (d, c) => named(c, 'sentences.user', d.name),
  'group created': (d, c) => named(c, 'sentences.group', d.name),
  'group updated': (d, c) => changedNamed(c, 'sentences.groupChanged', 'sentences.group', d),
  'group deleted': (d, c) => named(c, 'sentences.group', d.name),
  'group member added': (d, c) => {
    const member = all({ user: text(d.user), group: text(d.group) });
    if (!member) return null;
    return c.t(d.primary === true ? 'sentences.memberAddedPrimary' : 'sentences.memberAdded', member);
  },
  'group member removed': (d, c) => {
    const member = all({ user: text(d.user), group: text(d.group) });
    return member ? c.t('sentences.memberRemoved', member) : null;
  },
  'group primary member unset': (d, c) => {
    const member = all({ user: text(d.user), group: text(d.group) });
    return member ? c.t('sentences.primaryUnset', member) : null;
  },
  'users and groups synced': () => null,
  'Samba share created': (d, c) => named(c, 'sentences.share', d.name),
  'Samba share updated': (d, c) => changedNamed(c, 'sentences.shareChanged', 'sentences.share', d),
  'Samba share deleted': (d, c) => named(c, 'sentences.share', d.name),
  'Samba share user added': (d, c) => shareUser(d, c),
  'Samba share user removed': (d, c) => {
    const access = all({ user: text(d.user), share: text(d.share) });
    return access ? c.t('sentences.shareUserRemoved', access) : null;
  },
  'Samba share permissions updated': (d, c) => shareUser(d, c),
  'Samba reloaded': () => null,
  'Samba settings updated': (d, c) => {
    const fields = fieldList(c, d.fields);
    return fields ? c.t('sentences.changed', { fields }) : null;
  },
  'VPN user created': (d, c) => named(c, 'sentences.vpnUser', d.name),
  'VPN user updated': (d, c) => changedNamed(c, 'sentences.vpnUserChanged', 'sentences.vpnUser', d),
  'VPN user enabled': (d, c) => named(c, 'sentences.vpnUser', d.name),
  'VPN user disabled': (d, c) => named(c, 'sentences.vpnUser', d.name),
  'VPN user password changed': (d, c) => named(c, 'sentences.vpnUser', d.name),
  'VPN user revoked': (d, c) => named(c, 'sentences.vpnUser', d.name),
  'VPN user deleted': (d, c) => named(c, 'sentences.vpnUser', d.name),
  'VPN server restarted': () => null,
  'VPN reloaded': () => null,
  'NFS export created': (d, c) => named(c, 'sentences.nfsExport', d.name),
  'NFS export updated': (d, c) => changedNamed(c, 'sentences.nfsExportChanged', 'sentences.nfsExport', d),
  'NFS export deleted': (d, c) => named(c, 'sentences.nfsExport', d.name),
  'NFS client disconnected': (d, c) => named(c, 'sentences.nfsClient', d.address),
  'NFS reloaded': () => null,
  'NFS synced': () => null,
  'FTP user enabled': (d, c) => named(c, 'sentences.ftpUser', d.name),
  'FTP user disabled': (d, c) => named(c, 'sentences.ftpUser', d.name),
  'FTP permissions updated': (d, c) => {
    const access = all({ name: text(d.name), permissions: text(d.permissions) });
    return access
      ? c.t('sentences.ftpPermissions', {
          name: access.name,
          permissions: word(c, 'ftpPermissions', access.permissions),
        })
      : null;
  },
  'FTP settings updated': (d, c) => {
    const fields = fieldList(c, d.fields);
    return fields ? c.t('sentences.changed', { fields }) : null;
  },
  'FTP reloaded': () => null,
  'LDAP bind settings updated': () => null,
  'LDAP users updated': () => null,
  'LDAP alias changed': (d, c) => {
    const alias = text(d.to);
    return alias ? c.t('sentences.ldapAlias', { alias }) : c.t('sentences.ldapAliasRemoved');
  },
  'Backup schedule created': (d, c) => named(c, 'sentences.backupSchedule', d.name),
  'Backup schedule updated': (d, c) =>
    changedNamed(c, 'sentences.backupScheduleChanged', 'sentences.backupSchedule', d),
  'Backup schedule deleted': (d, c) => named(c, 'sentences.backupSchedule', d.name),
  'Backup started': (d, c) => named(c, 'sentences.backupSchedule', d.name),
  'Backup failed': (d, c) => {
    const failure = all({ name: text(d.name), code: text(d.code) });
    return failure
      ? c.t('sentences.backupFailed', { name: failure.name, reason: word(c, 'backupFailure', failure.code) })
      : null;
  },
  'Backup restore started': (d, c) => {
    const restore = all({ path: text(d.path), target: text(d.target) });
    return restore
      ? c.t('sentences.backupRestore', {
          path: restore.path,
          target: word(c, 'restoreTarget', restore.target),
        })
      : null;
  },
  'Backup restore failed': (d, c) => {
    const failure = all({ path: text(d.path), code: text(d.code) });
    return failure
      ? c.t('sentences.backupRestoreFailed', {
          path: failure.path,
          reason: word(c, 'backupFailure', failure.code),
        })
      : null;
  },
  'Backup client added': (d, c) => named(c, 'sentences.backupClient', d.name),
  'Backup client disconnected': (d, c) => named(c, 'sentences.backupClient', d.name),
  'Backup client deleted': (d, c) => named(c, 'sentences.backupClient', d.name),
  'Snapshot taken': (d, c) => named(c, 'sentences.snapshot', d.name),
  'Share link created': (d, c) => named(c, 'sentences.shareLink', d.name),
  'Share link revoked': (d, c) => named(c, 'sentences.shareLink', d.name),
  'Share link deleted': (d, c) => named(c, 'sentences.shareLink', d.name),
  'Subuser created': (d, c) => named(c, 'sentences.subuser', d.name),
  'Subuser password changed': (d, c) => named(c, 'sentences.subuser', d.name),
  'Subuser enabled': (d, c) => named(c, 'sentences.subuser', d.name),
  'Subuser disabled': (d, c) => named(c, 'sentences.subuser', d.name),
  'Subuser deleted': (d, c) => named(c, 'sentences.subuser', d.name),
  'Subuser 2FA enabled': (d, c) => named(c, 'sentences.subuser', d.name),
  'Subuser 2FA disabled': (d, c) => named(c, 'sentences.subuser', d.name),
  'Subuser backup codes renewed': (d, c) => named(c, 'sentences.subuser', d.name),
  'Subuser sessions revoked': (d, c) => named(c, 'sentences.subuser', d.name),
  'Subuser logged in': (d, c) => named(c, 'sentences.subuser', d.name),
  'Linux user logged in': (d, c) => named(c, 'sentences.linuxUser', d.name),
  'Linux user password changed': (d, c) => named(c, 'sentences.linuxUser', d.name),
};

function named(
  context: SentenceContext,
  key:
    | 'sentences.user'
    | 'sentences.group'
    | 'sentences.share'
    | 'sentences.vpnUser'
    | 'sentences.nfsExport'
    | 'sentences.nfsClient'
    | 'sentences.ftpUser'
    | 'sentences.backupSchedule'
    | 'sentences.backupClient'
    | 'sentences.snapshot'
    | 'sentences.shareLink'
    | 'sentences.subuser'
    | 'sentences.linuxUser',
  value: unknown,
): string | null {
  const name = text(value);
  return name ? context.t(key, { name }) : null;
}

function changedNamed(
  context: SentenceContext,
  key:
    | 'sentences.userChanged'
    | 'sentences.groupChanged'
    | 'sentences.shareChanged'
    | 'sentences.vpnUserChanged'
    | 'sentences.nfsExportChanged'
    | 'sentences.backupScheduleChanged',
  plain:
    | 'sentences.user'
    | 'sentences.group'
    | 'sentences.share'
    | 'sentences.vpnUser'
    | 'sentences.nfsExport'
    | 'sentences.backupSchedule',
  details: Details,
): string | null {
  const name = text(details.name);
  if (!name) return null;
  const fields = fieldList(context, details.fields);
  return fields ? context.t(key, { name, fields }) : context.t(plain, { name });
}

/** A kept card, as Billing shows it: Visa •••• 4242. */
function card(d: Details, c: SentenceContext): string | null {
  const brand = text(d.brand);
  const last4 = text(d.last4);
  return brand && last4 ? c.t('sentences.card', { brand: cardBrandName(brand), last4 }) : null;
}

function planChange(d: Details, c: SentenceContext): string | null {
  const plans = all({ from: text(d.from), to: text(d.to) });
  const disk = amount(d.disk_space);
  const users = amount(d.users_count);
  if (!plans || disk === null || users === null) return null;
  const parts = [
    c.t('sentences.planChange', {
      from: c.planName(plans.from),
      to: c.planName(plans.to),
      disk: diskSize(disk, c.language),
      users,
    }),
  ];
  const credit = amount(d.credit);
  const pending = amount(d.credit_pending);
  if (credit !== null) parts.push(c.t('sentences.credit', { amount: money(credit, c.language) }));
  if (pending !== null) parts.push(c.t('sentences.creditPending', { amount: money(pending, c.language) }));
  return parts.join('. ');
}

function shareUser(d: Details, c: SentenceContext): string | null {
  const access = all({ user: text(d.user), share: text(d.share) });
  if (!access) return null;
  const granted = rights(c, d);
  return granted
    ? c.t('sentences.shareUser', { ...access, rights: granted })
    : c.t('sentences.shareUserNoRights', access);
}

/**
 * The sentence of an entry's details: a string, null when a known action's details add nothing,
 * undefined for an action this version of the app does not know (its details are then listed
 * as recorded).
 */
export function activitySentence(
  action: string,
  details: Details,
  context: SentenceContext,
): string | null | undefined {
  const key = actionKey(action);
  if (key === null) return undefined;
  const declared: ActivitySentence | undefined = (
    FEATURE_ACTION_SENTENCES as Readonly<Record<string, ActivitySentence>>
  )[action];
  if (declared) return catalogueSentence(key, declared, details, context);
  return SENTENCES[action as Exclude<ActivityAction, FeatureSentenceAction>](details, context);
}

/** A sentence a feature's catalogue gives its action: its details put into its text, when all are there. */
function catalogueSentence(
  key: string,
  sentence: ActivitySentence,
  details: Details,
  context: SentenceContext,
): string | null {
  const values: Record<string, string> = {};
  for (const name of sentence.details) {
    const value = details[name];
    if (typeof value !== 'string' && typeof value !== 'number') return null;
    values[name] = String(value);
  }
  // The catalogues' sentences are typed as a record of strings (featureSentenceTexts): the key
  // and the values it names come from the same catalogue entry.
  const translate = context.t as unknown as (key: string, values: Record<string, string>) => string;
  return translate(`featureSentences.${key}`, values);
}
