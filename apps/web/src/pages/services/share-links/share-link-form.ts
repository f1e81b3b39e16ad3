// The new-link form's values and their rules. The form keeps what the owner typed (the address
// lists as text, one rule a line; the download limit as typed), turns it into the create request
// and checks that with the contract's own schema, so the form refuses what the server would, in
// the same words.
import {
  SHARE_LINK_EXPIRIES,
  SHARE_LINK_TYPES,
  createShareLinkRequestSchema,
  ipRuleSchema,
  type CreateShareLinkRequest,
} from '@debesis/contract';
import { z } from 'zod';
import { ApiError, isApiError } from '../../../api/api-error.ts';

/** An address list as typed: one rule a line, blank lines left out. */
export function ipLines(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

/** The first line of an address list that the contract refuses: its number (from 1) and the code. */
export function badIpLine(text: string): { line: number; code: string } | undefined {
  for (const [index, line] of text.split('\n').entries()) {
    if (line.trim() === '') continue;
    const parsed = ipRuleSchema.safeParse(line);
    if (!parsed.success) return { line: index + 1, code: parsed.error.issues[0]?.message ?? '' };
  }
  return undefined;
}

export const shareLinkFormSchema = z
  .object({
    type: z.enum(SHARE_LINK_TYPES),
    target: z.string(),
    expiry: z.enum(SHARE_LINK_EXPIRIES),
    label: z.string(),
    password: z.string(),
    download_limit: z.string(),
    ip_allow: z.string(),
    ip_deny: z.string(),
  })
  .transform(({ label, password, download_limit, ip_allow, ip_deny, ...rest }): CreateShareLinkRequest => ({
    ...rest,
    ...(label.trim() && { label: label.trim() }),
    ...(password && { password }),
    // '' is no limit; anything else is the contract's to judge (a fraction, 0).
    download_limit: download_limit.trim() === '' ? null : Number(download_limit),
    ip_allow: ipLines(ip_allow),
    ip_deny: ipLines(ip_deny),
  }))
  .pipe(createShareLinkRequestSchema);
export type ShareLinkFormValues = z.input<typeof shareLinkFormSchema>;

/** A new link: shared for 7 days, no password, no limit, any address. */
export const NEW_SHARE_LINK: ShareLinkFormValues = {
  type: 'samba',
  target: '',
  expiry: '7d',
  label: '',
  password: '',
  download_limit: '',
  ip_allow: '',
  ip_deny: '',
};

const IP_FIELD = /^(ip_allow|ip_deny)\.(\d+)$/;

/**
 * The server names a refused rule by its place in the list it was sent (`ip_allow.2`), which is
 * not its line in the text box (blank lines are left out): its message goes on the box, with the
 * rule it is about.
 */
export function onTheAddressBox(
  error: unknown,
  sent: { ip_allow: readonly string[]; ip_deny: readonly string[] },
  withRule: (rule: string, message: string) => string,
): unknown {
  if (!isApiError(error)) return error;
  const fields = Object.entries(error.fieldErrors);
  if (!fields.some(([field]) => IP_FIELD.test(field))) return error;
  const fieldErrors: Record<string, string> = {};
  for (const [field, message] of fields) {
    const match = IP_FIELD.exec(field);
    const list = match?.[1] as 'ip_allow' | 'ip_deny' | undefined;
    const rule = list && sent[list][Number(match?.[2])];
    fieldErrors[list ?? field] ??= rule === undefined ? message : withRule(rule, message);
  }
  return new ApiError(error.status, error.detail, error.message, fieldErrors, {
    cause: error,
    data: error.data,
    retryAfterSeconds: error.retryAfterSeconds,
  });
}
