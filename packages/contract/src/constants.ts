// The business constants of the spec (accounts-ordering-billing §9, service-management §9) that
// more than one part of the system needs. Anything here is a promise to the customer.

export const LANGUAGES = ['en', 'lt'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';

export const THEMES = ['light', 'dark', 'system'] as const;
export type Theme = (typeof THEMES)[number];
export const DEFAULT_THEME: Theme = 'light';

/** Names of what the browser keeps, as the spec fixes them. */
export const STORAGE_KEYS = {
  accessToken: 'token',
  refreshToken: 'refresh_token',
  theme: 'theme',
  language: 'language',
  userId: 'user_id',
  selectedPlan: 'selected_plan',
  linuxUserToken: 'linux_user_token',
  /** A subuser's session token (`sus_…`), kept apart from the owner's. */
  subuserToken: 'subuser_token',
} as const;

/** The CSRF double-submit pair: the server sets the cookie, the client echoes it in the header. */
export const CSRF_COOKIE = 'csrf_token';
export const CSRF_HEADER = 'x-csrf-token';
/** The language of every call travels in the standard header; the server answers in it. */
export const LANGUAGE_HEADER = 'accept-language';

export const CLIENT_TIMING = {
  requestTimeoutMs: 10_000,
  tokenSettleMs: 100,
  replayDelayMs: 100,
  refreshWhenExpiresWithinMs: 5 * 60_000,
  refreshCheckEveryMs: 4 * 60_000,
  userLoadRetryDelaysMs: [1_000, 2_000, 3_000],
  pendingPlanGuardMs: 30_000,
} as const;

export const QUERY_CACHE = {
  staleTimeMs: 5 * 60_000,
  gcTimeMs: 10 * 60_000,
  retry: 1,
  refetchOnWindowFocus: false,
} as const;

export const PASSWORD_MIN_LENGTH = 8;
export const NAME_MIN_LENGTH = 2;
export const TWO_FACTOR_CODE_LENGTH = 6;
export const ACTIVITY_DEFAULT_LIMIT = 50;
export const LOG_LINES_DEFAULT = 100;
export const INVOICES_DEFAULT_PER_PAGE = 10;
export const DEFAULT_CURRENCY = 'EUR';
