// The activity log (spec accounts-ordering-billing §3 "Activity entry", §5, §9; service-management
// §3, §7 Activity): every management action and sign-in of an account, with its tone, the IP
// address it came from, when, on which service and what it changed.
import { z } from 'zod';
import { text } from './strings.ts';
import { calendarDateSchema } from './billing.ts';
import { ACTIVITY_DEFAULT_LIMIT } from './constants.ts';
import { FEATURE_ACTIVITY_ACTIONS } from './features/catalogues.ts';

export const ACTIVITY_TONES = ['success', 'warning', 'error', 'info'] as const;
export type ActivityTone = (typeof ACTIVITY_TONES)[number];

/** The two histories of the activity page: what was changed, and who signed in from where. */
export const ACTIVITY_KINDS = ['management', 'login'] as const;
export type ActivityKind = (typeof ACTIVITY_KINDS)[number];

/** The action of a sign-in (password, OAuth or a password reset): the login history. */
export const LOGIN_ACTION = 'user logged in';

/** The most entries one page may ask for; the spec's default is ACTIVITY_DEFAULT_LIMIT (50). */
export const ACTIVITY_MAX_LIMIT = 200;
export const ACTIVITY_MAX_SKIP = 1_000_000;

/**
 * The actions the API records, as stable codes (the web app translates each; an action it does
 * not know yet is shown as recorded). Tones per the spec: success for created, restored and
 * payment completed; warning for deletions and quarantine; error for terminated; info for
 * sign-ins and settings. These are the account's, orders' and services' own; each workspace
 * feature declares its actions in its catalogue (features/catalogues.ts).
 */
export const SHARED_ACTIVITY_ACTIONS = [
  'user logged in',
  'account created',
  'email verified',
  'password changed',
  'settings updated',
  'account converted to business',
  'OAuth identity linked',
  'session revoked: a used refresh token was presented again',
  'session signed out',
  'email change requested',
  'email changed',
  'billing info updated',
  'order created',
  'order cancelled',
  'payment completed',
  'payment credited',
  'payment refunded',
  'payment refused',
  'plan change ordered',
  'plan change waiting for room',
  'plan changed',
  'plan change credit granted',
  'plan change reverted',
  'service placed',
  'service waiting for resources',
  'service created',
  'service started',
  'service stopped',
  'service restarted',
  'service cancelled',
  'service expired',
  'service quarantined',
  'service terminated',
  'service restored',
  // Support's suspension of every active service of an account (`npm run ops -- customers suspend`).
  'service suspended',
  'service reactivated',
  'company details corrected',
  // Durability (replicas.ts): the workspace now serves from its standby on another node.
  'service failed over',
  'service moved',
  'payment method saved',
  'payment method removed',
  // Automatic renewal (billing.renewals): the kept card's charge declined or needing the customer.
  'renewal failed',
] as const;
export type ActivityAction =
  (typeof SHARED_ACTIVITY_ACTIONS)[number] | (typeof FEATURE_ACTIVITY_ACTIONS)[number];
export const ACTIVITY_ACTIONS: readonly ActivityAction[] = [
  ...SHARED_ACTIVITY_ACTIONS,
  ...FEATURE_ACTIVITY_ACTIONS,
];

export const activityEntrySchema = z.object({
  id: text(),
  /** A stable code (ACTIVITY_ACTIONS), translated by the client. */
  action: text(),
  tone: z.enum(ACTIVITY_TONES),
  ip: text().nullable(),
  created_at: text(),
  service_id: text().nullable(),
  /** The service's name now, so the log names it; null without a service or once it is gone. */
  service_name: text().nullable(),
  details: z.record(text(), z.unknown()),
});
export type ActivityEntry = z.infer<typeof activityEntrySchema>;

export const activityPageSchema = z.object({
  items: z.array(activityEntrySchema),
  total: z.number().int(),
  skip: z.number().int(),
  limit: z.number().int(),
});
export type ActivityPage = z.infer<typeof activityPageSchema>;

/**
 * Spec §5: empty or null filter values are dropped. In a query string a null arrives as an empty
 * value or as the word itself (`?tone=null`), so both mean "no filter".
 */
export function isBlankFilter(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value !== 'string') return false;
  const text = value.trim();
  return text === '' || text === 'null' || text === 'undefined';
}
const dropBlank = (value: unknown) => (isBlankFilter(value) ? undefined : value);

const paging = {
  skip: z.preprocess(dropBlank, z.coerce.number().int().min(0).max(ACTIVITY_MAX_SKIP).default(0)),
  limit: z.preprocess(
    dropBlank,
    z.coerce.number().int().min(1).max(ACTIVITY_MAX_LIMIT).default(ACTIVITY_DEFAULT_LIMIT),
  ),
};

/** GET /activity/ and GET /activity/audit/{serviceId}: skip 0 and limit 50 by default. */
export const activityListQuerySchema = z.object(paging);
export type ActivityListQuery = z.infer<typeof activityListQuerySchema>;

/**
 * GET /activity/filtered: every filter is optional and combines with the others. Dates are
 * calendar days in UTC, both ends included.
 */
export const activityFilterQuerySchema = z
  .object({
    ...paging,
    action: z.preprocess(dropBlank, text().trim().max(200, 'too_long').optional()),
    tone: z.preprocess(dropBlank, z.enum(ACTIVITY_TONES).optional()),
    kind: z.preprocess(dropBlank, z.enum(ACTIVITY_KINDS).optional()),
    service_id: z.preprocess(dropBlank, z.uuid('invalid_format').optional()),
    start_date: z.preprocess(dropBlank, calendarDateSchema.optional()),
    end_date: z.preprocess(dropBlank, calendarDateSchema.optional()),
  })
  .superRefine((value, context) => {
    if (value.start_date && value.end_date && value.end_date < value.start_date) {
      context.addIssue({ code: 'custom', message: 'invalid_value', path: ['end_date'] });
    }
  });
export type ActivityFilterQuery = z.infer<typeof activityFilterQuerySchema>;
/** What the web client may send: every filter optional, blanks allowed (they are dropped). */
export type ActivityFilters = Partial<
  Record<'action' | 'tone' | 'kind' | 'service_id' | 'start_date' | 'end_date', string | null>
>;

export const activityAuditParamsSchema = z.object({ serviceId: z.uuid('invalid_format') });

/** The filters with blank values taken out, for a request (spec §5). */
export function withoutBlankFilters<T extends Record<string, unknown>>(filters: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(filters).filter(([, value]) => !isBlankFilter(value)),
  ) as Partial<T>;
}
