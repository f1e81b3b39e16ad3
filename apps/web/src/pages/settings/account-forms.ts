// The self-service forms of Settings and the calls behind them. Field rules come from the
// contract (the server checks the same ones); a server's field errors land on the field named
// the same way.
import {
  addressSchema,
  emailSchema,
  passwordSchema,
  personNameSchema,
  phoneSchema,
  text,
  type UpdateUserRequest,
  type User,
} from '@debesis/contract';
import type { TFunction } from 'i18next';
import { z } from 'zod';
import { isApiError } from '../../api/client.ts';
import { tooManyAttemptsMessage } from '../../auth/login.ts';

export const USERS_ME_PATH = '/api/v1/users/me';
export const CHANGE_PASSWORD_PATH = '/api/v1/auth/change-password';
export const CHANGE_EMAIL_PATH = '/api/v1/auth/change-email';
export const CONFIRM_EMAIL_CHANGE_PATH = '/api/v1/auth/confirm-email-change';
export const SESSIONS_PATH = '/api/v1/auth/sessions';

const requiredText = text({ error: 'required' }).min(1, 'required');

export const profileFormSchema = z.object({
  first_name: personNameSchema,
  last_name: personNameSchema,
  phone: phoneSchema,
  street: addressSchema.shape.street,
  city: addressSchema.shape.city,
  state: addressSchema.shape.state,
  postal_code: addressSchema.shape.postal_code,
});
export type ProfileFormValues = z.input<typeof profileFormSchema>;

export function profileValues(user: User): ProfileFormValues {
  return {
    first_name: user.first_name,
    last_name: user.last_name,
    phone: user.phone ?? '',
    street: user.address?.street ?? '',
    city: user.address?.city ?? '',
    state: user.address?.state ?? '',
    postal_code: user.address?.postal_code ?? '',
  };
}

export function toProfileUpdate(values: z.output<typeof profileFormSchema>): UpdateUserRequest {
  return {
    first_name: values.first_name,
    last_name: values.last_name,
    phone: values.phone === '' ? null : values.phone,
    address: {
      street: values.street,
      city: values.city,
      state: values.state,
      postal_code: values.postal_code,
    },
  };
}

export const emailChangeFormSchema = z.object({ new_email: emailSchema, current_password: requiredText });
export type EmailChangeFormValues = z.input<typeof emailChangeFormSchema>;

export const passwordChangeFormSchema = z
  .object({ current_password: requiredText, new_password: passwordSchema, confirm_password: requiredText })
  .superRefine((value, context) => {
    if (value.confirm_password && value.new_password !== value.confirm_password) {
      context.addIssue({ code: 'custom', path: ['confirm_password'], message: 'passwords_do_not_match' });
    }
  });
export type PasswordChangeFormValues = z.input<typeof passwordChangeFormSchema>;

/** The general message of a failed form: throttling with its wait, the server's words, or `fallback`. */
export function failureText(error: unknown, t: TFunction, fallback: string): string {
  if (!isApiError(error)) return fallback;
  if (error.status === 429) return tooManyAttemptsMessage(error, t);
  if (error.status === 0 || (error.status >= 400 && error.status < 500)) return error.message;
  return fallback;
}
