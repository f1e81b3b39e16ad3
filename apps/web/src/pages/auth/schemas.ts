// The account forms' rules: the contract's schemas (so the words match the server's) plus what
// only a form has, the password confirmation. Messages are catalogue codes or i18n keys,
// translated by forms/messages.ts.
import {
  ACCOUNT_TYPES,
  businessDetailsSchema,
  countryCodeSchema,
  emailSchema,
  passwordSchema,
  personNameSchema,
  registerRequestSchema,
  BACKUP_CODE_PATTERN,
  TWO_FACTOR_CODE_LENGTH,
  type RegisterRequest,
} from '@debesis/contract';
import { z } from 'zod';
import { formErrorMap } from '../../forms/messages.ts';
import { refineVatNumber } from '../../forms/vat-number.ts';

const requiredText = z.string().min(1, 'required');

/** A country picked from the list: "required" when none is, the contract's rule otherwise. */
const countryFieldSchema = z.string().min(1, 'required').pipe(countryCodeSchema);

export const loginFormSchema = z.object({
  email: emailSchema,
  password: requiredText,
});
export type LoginFormValues = z.input<typeof loginFormSchema>;

export const subuserLoginFormSchema = z.object({
  username: z.string().trim().min(1, 'required'),
  serviceId: z.string().trim().min(1, 'required'),
  password: requiredText,
  // The app's 6-digit code, or one of the backup codes (`abcde-fghij`), or nothing yet.
  twoFactorCode: z
    .string()
    .trim()
    .refine(
      (code) =>
        code === '' ||
        new RegExp(`^\\d{${TWO_FACTOR_CODE_LENGTH}}$`).test(code) ||
        BACKUP_CODE_PATTERN.test(code),
      'login.subuser.codeFormat',
    ),
  rememberMe: z.boolean(),
});
export type SubuserLoginFormValues = z.input<typeof subuserLoginFormSchema>;

export const emailFormSchema = z.object({ email: emailSchema });
export type EmailFormValues = z.input<typeof emailFormSchema>;

function checkConfirmation(
  value: { password: string; confirmPassword: string },
  context: z.RefinementCtx,
): void {
  if (value.confirmPassword && value.password !== value.confirmPassword) {
    context.addIssue({ code: 'custom', path: ['confirmPassword'], message: 'passwords_do_not_match' });
  }
}

export const newPasswordFormSchema = z
  .object({ password: passwordSchema, confirmPassword: requiredText })
  .superRefine(checkConfirmation);
export type NewPasswordFormValues = z.input<typeof newPasswordFormSchema>;

/** The company fields as a form holds them: plain strings, checked by businessDetailsSchema. */
export interface CompanyFormValues {
  business_name: string;
  business_code: string;
  vat_number: string;
  address: { street: string; city: string; postal_code: string };
}

export const EMPTY_COMPANY: CompanyFormValues = {
  business_name: '',
  business_code: '',
  vat_number: '',
  address: { street: '', city: '', postal_code: '' },
};

const companyFieldsSchema = z.object({
  business_name: z.string(),
  business_code: z.string(),
  vat_number: z.string(),
  address: z.object({ street: z.string(), city: z.string(), postal_code: z.string() }),
});

/** Spec §5: business name, code, address and country required; VAT number optional. */
function checkCompany(
  company: CompanyFormValues,
  country: string,
  context: z.RefinementCtx,
  prefix: (string | number)[],
): void {
  const result = businessDetailsSchema.safeParse({ ...company, country }, { error: formErrorMap });
  if (result.success) return;
  for (const issue of result.error.issues) {
    // The country has its own field, checked on its own.
    if (issue.path[0] === 'country') continue;
    context.addIssue({
      code: 'custom',
      path: [...prefix, ...issue.path.map((part) => (typeof part === 'symbol' ? String(part) : part))],
      message: issue.message,
    });
  }
}

export const registerFormSchema = z
  .object({
    accountType: z.enum(ACCOUNT_TYPES),
    firstName: personNameSchema,
    lastName: personNameSchema,
    email: emailSchema,
    password: passwordSchema,
    confirmPassword: requiredText,
    country: countryFieldSchema,
    business_details: companyFieldsSchema,
  })
  .superRefine((value, context) => {
    checkConfirmation(value, context);
    if (value.accountType === 'business') {
      checkCompany(value.business_details, value.country, context, ['business_details']);
    }
  })
  .superRefine(async (value, context) => {
    if (value.accountType !== 'business') return;
    await refineVatNumber(value.business_details.vat_number, value.country, context, [
      'business_details',
      'vat_number',
    ]);
  });
export type RegisterFormValues = z.input<typeof registerFormSchema>;

/** The registration body (spec §3); company details only for a business account. */
export function toRegisterRequest(values: RegisterFormValues): RegisterRequest {
  const { confirmPassword: _confirmation, business_details: company, ...account } = values;
  const body = {
    ...account,
    ...(values.accountType === 'business'
      ? { business_details: { ...company, vat_number: company.vat_number, country: values.country } }
      : {}),
  };
  return registerRequestSchema.parse(body);
}

export const companyFormSchema = z
  .object({ country: countryFieldSchema, company: companyFieldsSchema })
  .superRefine((value, context) => checkCompany(value.company, value.country, context, ['company']))
  .superRefine((value, context) =>
    refineVatNumber(value.company.vat_number, value.country, context, ['company', 'vat_number']),
  );
export type CompanyConversionValues = z.input<typeof companyFormSchema>;

export function toBusinessDetails(values: CompanyConversionValues): z.output<typeof businessDetailsSchema> {
  return businessDetailsSchema.parse({ ...values.company, country: values.country });
}
