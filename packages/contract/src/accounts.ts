// Accounts, sessions and settings (spec accounts-ordering-billing §3-9). The same schemas
// validate the web forms and the API, so a rule and its message exist once. Custom messages are
// catalogue codes (errors.ts), translated on each side.
import { z } from 'zod';
import { text } from './strings.ts';
import { LANGUAGES, NAME_MIN_LENGTH, PASSWORD_MIN_LENGTH, THEMES } from './constants.ts';

export const ACCOUNT_TYPES = ['personal', 'business'] as const;
export type AccountType = (typeof ACCOUNT_TYPES)[number];

export const emailSchema = text({ error: 'required' })
  .trim()
  .min(1, 'required')
  .max(254, 'invalid_email')
  .pipe(z.email('invalid_email'));

export const passwordSchema = text({ error: 'required' })
  .min(1, 'required')
  .min(PASSWORD_MIN_LENGTH, 'password_too_short')
  .max(128, 'password_too_long')
  .regex(/[a-z]/, 'password_needs_lowercase')
  .regex(/[A-Z]/, 'password_needs_uppercase')
  .regex(/[0-9]/, 'password_needs_number');

export const personNameSchema = text({ error: 'required' })
  .trim()
  .min(1, 'required')
  .min(NAME_MIN_LENGTH, 'name_too_short')
  .max(100, 'too_long');

/** ISO 3166-1 alpha-2, upper case. */
export const countryCodeSchema = text({ error: 'required' })
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{2}$/, 'invalid_country');

export const addressSchema = z.object({
  street: text().trim().max(200).default(''),
  city: text().trim().max(100).default(''),
  state: text().trim().max(100).default(''),
  postal_code: text().trim().max(20).default(''),
});
export type Address = z.infer<typeof addressSchema>;

/** A VAT number as people type it: country prefix and 2-13 letters or digits, spaces and dots ignored. */
export const vatNumberSchema = text()
  .trim()
  .transform((value) => value.replace(/[\s.-]/g, '').toUpperCase())
  .pipe(text().regex(/^[A-Z]{2}[A-Z0-9+*]{2,13}$/, 'invalid_vat_number'));

/**
 * Company codes of the countries whose register numbers have a fixed shape (spaces ignored): LT's
 * juridinio asmens kodas 9 digits, LV's registration number 11, EE's registry code 8. Another
 * country's code is taken as typed: its registers differ too much to guess.
 */
export const COMPANY_CODE_PATTERNS: Readonly<Record<string, RegExp>> = {
  LT: /^\d{9}$/,
  LV: /^\d{11}$/,
  EE: /^\d{8}$/,
};

/** Whether `code` has the shape of `country`'s company codes (true where none is known). */
export function companyCodeFits(code: string, country: string): boolean {
  const pattern = COMPANY_CODE_PATTERNS[country.trim().toUpperCase()];
  return pattern === undefined || pattern.test(code.replace(/\s/g, ''));
}

/** A phone number: digits, spaces, +, - and parentheses, 6 to 20 digits; empty is none. */
export const phoneSchema = text()
  .trim()
  .max(32, 'too_long')
  .refine((value) => {
    if (value === '') return true;
    const digits = value.replace(/\D/g, '').length;
    return /^[\d\s+\-()]+$/.test(value) && digits >= 6 && digits <= 20;
  }, 'invalid_phone');

export const businessDetailsSchema = z
  .object({
    business_name: text({ error: 'required' }).trim().min(1, 'required').max(200, 'too_long'),
    business_code: text({ error: 'required' }).trim().min(1, 'required').max(50, 'too_long'),
    vat_number: z.union([vatNumberSchema, z.literal('').transform(() => undefined)]).optional(),
    address: addressSchema.extend({
      street: text({ error: 'required' }).trim().min(1, 'required').max(200),
      city: text({ error: 'required' }).trim().min(1, 'required').max(100),
    }),
    country: countryCodeSchema,
  })
  .superRefine((value, context) => {
    if (value.business_code !== '' && !companyCodeFits(value.business_code, value.country)) {
      context.addIssue({ code: 'custom', path: ['business_code'], message: 'invalid_company_code' });
    }
  });
export type BusinessDetails = z.infer<typeof businessDetailsSchema>;

export const registerRequestSchema = z
  .object({
    email: emailSchema,
    password: passwordSchema,
    firstName: personNameSchema,
    lastName: personNameSchema,
    accountType: z.enum(ACCOUNT_TYPES, { error: 'invalid_value' }).default('personal'),
    country: countryCodeSchema,
    phone: phoneSchema.optional(),
    address: addressSchema.optional(),
    business_details: businessDetailsSchema.optional(),
  })
  .superRefine((value, context) => {
    if (value.accountType === 'business' && !value.business_details) {
      context.addIssue({ code: 'custom', path: ['business_details'], message: 'business_details_required' });
    }
  });
export type RegisterRequest = z.input<typeof registerRequestSchema>;

/** The login form, form-encoded as OAuth2's password grant (spec §3). */
export const loginRequestSchema = z.object({
  username: text({ error: 'required' }).trim().min(1, 'required').max(254),
  password: text({ error: 'required' }).min(1, 'required').max(1024),
  grant_type: z.literal('password', { error: 'invalid_value' }),
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

export const tokenPairSchema = z.object({
  access_token: text(),
  refresh_token: text(),
});
export type TokenPair = z.infer<typeof tokenPairSchema>;

export const loginResponseSchema = tokenPairSchema.extend({
  token_type: z.literal('bearer'),
  /** Seconds until the access token expires. */
  expires_in: z.number().int(),
});
export type LoginResponse = z.infer<typeof loginResponseSchema>;

export const refreshRequestSchema = z.object({
  refresh_token: text({ error: 'required' }).min(1).max(512),
});
/** The refresh answer; `refresh_token` is always rotated here, though the spec lets clients treat it as optional. */
export const refreshResponseSchema = loginResponseSchema;

export const verifyEmailRequestSchema = z.object({ token: text({ error: 'required' }).min(1).max(512) });
export const resendVerificationRequestSchema = z.object({ email: emailSchema });
export const requestPasswordResetSchema = z.object({ email: emailSchema });
export const resetPasswordRequestSchema = z.object({
  token: text({ error: 'required' }).min(1).max(512),
  password: passwordSchema,
});
export const messageResponseSchema = z.object({ message: text() });

export const detectCountryResponseSchema = z.object({
  /** null when nothing tells where the visitor is. */
  country: text().length(2).nullable(),
  source: z.enum(['proxy_header', 'geoip', 'accept_language', 'none']),
});

export const companySchema = z.object({
  name: text(),
  code: text(),
  vat_number: text().nullable(),
  country: text(),
  address: addressSchema,
});
export type Company = z.infer<typeof companySchema>;

export const notificationsSchema = z.object({ email: z.boolean(), browser: z.boolean() });

export const settingsSchema = z.object({
  theme: z.enum(THEMES),
  language: z.enum(LANGUAGES),
  notifications: notificationsSchema,
});
export type Settings = z.infer<typeof settingsSchema>;

export const updateSettingsRequestSchema = z
  .object({
    theme: z.enum(THEMES, { error: 'invalid_theme' }),
    language: z.enum(LANGUAGES, { error: 'invalid_language' }),
    notifications: notificationsSchema.partial(),
  })
  .partial()
  .strict();
export type UpdateSettingsRequest = z.infer<typeof updateSettingsRequestSchema>;

/** The current user (spec §3), merged with the settings. */
export const userSchema = z.object({
  id: text(),
  email: text(),
  first_name: text(),
  last_name: text(),
  active: z.boolean(),
  account_type: z.enum(ACCOUNT_TYPES),
  email_verified: z.boolean(),
  login_count: z.number().int(),
  roles: z.array(text()),
  country: text().nullable(),
  phone: text().nullable(),
  address: addressSchema.nullable(),
  company: companySchema.nullable(),
  has_password: z.boolean(),
  created_at: text(),
  theme: z.enum(THEMES),
  language: z.enum(LANGUAGES),
  notification_email: z.boolean(),
  notification_browser: z.boolean(),
});
export type User = z.infer<typeof userSchema>;

/**
 * `token` is always null: nobody is signed in before the address is verified (a session opened
 * at registration would belong to whoever registered the address first). The key stays, as the
 * spec's answer has it, so a client that stores what it finds stores nothing.
 */
export const registerResponseSchema = z.object({ user: userSchema, token: tokenPairSchema.nullable() });
export type RegisterResponse = z.infer<typeof registerResponseSchema>;

/** What the owner may change about themselves; company details are fixed once set. */
export const updateUserRequestSchema = z
  .object({
    first_name: personNameSchema,
    last_name: personNameSchema,
    phone: phoneSchema.nullable(),
    country: countryCodeSchema,
    address: addressSchema,
    theme: z.enum(THEMES, { error: 'invalid_theme' }),
    language: z.enum(LANGUAGES, { error: 'invalid_language' }),
    notification_email: z.boolean(),
    notification_browser: z.boolean(),
  })
  .partial()
  .strict();
export type UpdateUserRequest = z.infer<typeof updateUserRequestSchema>;

export const convertToBusinessRequestSchema = z.object({ business_details: businessDetailsSchema });
/** The owner's correction of the company details, allowed until the first invoice names them. */
export const updateCompanyRequestSchema = convertToBusinessRequestSchema;

export const OAUTH_PROVIDERS = ['google', 'github', 'microsoft'] as const;
export type OAuthProvider = (typeof OAUTH_PROVIDERS)[number];

export const oauthProvidersResponseSchema = z.object({
  providers: z.array(z.object({ id: z.enum(OAUTH_PROVIDERS), name: text(), enabled: z.boolean() })),
});

/** One-time code the OAuth callback page trades for tokens (tokens never travel in a URL). */
export const oauthExchangeRequestSchema = z.object({ code: text().min(1).max(512) });

// ── Self-service in Settings: password, email, sessions ─────────────────────────────────────

/** How long the link mailed to a new address stays valid. */
export const EMAIL_CHANGE_LINK_TTL_HOURS = 24;

/** The current password, as typed: checked against the stored hash, never against the rules. */
const currentPasswordSchema = text({ error: 'required' }).min(1, 'required').max(1024);

/** Ends every other session of the account; the one asking keeps going. */
export const changePasswordRequestSchema = z.object({
  current_password: currentPasswordSchema,
  new_password: passwordSchema,
});
export type ChangePasswordRequest = z.infer<typeof changePasswordRequestSchema>;

/** Mails a single-use link to the new address; the account's address changes only when it is opened. */
export const changeEmailRequestSchema = z.object({
  new_email: emailSchema,
  current_password: currentPasswordSchema,
});
export type ChangeEmailRequest = z.infer<typeof changeEmailRequestSchema>;

export const changeEmailResponseSchema = z.object({
  message: text(),
  /** Where the link went (lower-cased), and until when it works. */
  new_email: text(),
  expires_at: text(),
});
export type ChangeEmailResponse = z.infer<typeof changeEmailResponseSchema>;

export const confirmEmailChangeRequestSchema = z.object({
  token: text({ error: 'required' }).min(1).max(512),
});
export const confirmEmailChangeResponseSchema = z.object({ message: text(), email: text() });
export type ConfirmEmailChangeResponse = z.infer<typeof confirmEmailChangeResponseSchema>;

/** One sign-in that is still alive: where and with what it was made, and when it was last renewed. */
export const accountSessionSchema = z.object({
  id: text(),
  /** The session making this request. */
  current: z.boolean(),
  /** How it began: password, password_reset, oauth:<provider>… */
  method: text(),
  ip: text().nullable(),
  user_agent: text().nullable(),
  /** Read from the user agent; null when it names none we know. */
  browser: text().nullable(),
  os: text().nullable(),
  created_at: text(),
  /** When its tokens were last issued (sign-in or refresh): accurate to one access token's life. */
  last_used_at: text(),
});
export type AccountSession = z.infer<typeof accountSessionSchema>;

export const accountSessionsResponseSchema = z.object({ sessions: z.array(accountSessionSchema) });
export type AccountSessionsResponse = z.infer<typeof accountSessionsResponseSchema>;
