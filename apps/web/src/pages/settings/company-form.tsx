// The company details form, shared by the conversion to a business account and the owner's
// correction of the details before the first invoice: one set of fields, one mapping of the
// server's field errors onto them.
import type { User } from '@debesis/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, type FieldPath, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/client.ts';
import { fieldErrorText, formErrorMap } from '../../forms/messages.ts';
import { CompanyFields, CountrySelect } from '../auth/CompanyFields.tsx';
import { companyFormSchema, EMPTY_COMPANY, type CompanyConversionValues } from '../auth/schemas.ts';

export type CompanyForm = UseFormReturn<CompanyConversionValues>;

const FIELD_NAMES: Record<string, FieldPath<CompanyConversionValues>> = {
  'business_details.business_name': 'company.business_name',
  'business_details.business_code': 'company.business_code',
  'business_details.vat_number': 'company.vat_number',
  'business_details.address.street': 'company.address.street',
  'business_details.address.city': 'company.address.city',
  'business_details.address.postal_code': 'company.address.postal_code',
  'business_details.country': 'country',
};

/** The details the account has now, as the form edits them (empty for a personal account). */
function currentValues(user: User): CompanyConversionValues {
  const company = user.company;
  if (!company) return { country: user.country ?? '', company: EMPTY_COMPANY };
  return {
    country: company.country,
    company: {
      business_name: company.name,
      business_code: company.code,
      vat_number: company.vat_number ?? '',
      address: {
        street: company.address.street,
        city: company.address.city,
        postal_code: company.address.postal_code,
      },
    },
  };
}

export function useCompanyForm(user: User): CompanyForm {
  return useForm<CompanyConversionValues>({
    resolver: zodResolver(companyFormSchema, { error: formErrorMap }),
    defaultValues: currentValues(user),
  });
}

/** Puts the server's field errors on their fields; true when at least one was shown. */
export function showServerFieldErrors(form: CompanyForm, error: unknown): boolean {
  if (!isApiError(error)) return false;
  let shown = false;
  for (const [field, message] of Object.entries(error.fieldErrors)) {
    const name = FIELD_NAMES[field];
    if (!name) continue;
    form.setError(name, { type: 'server', message });
    shown = true;
  }
  return shown;
}

export function CompanyFormFields({ form, idPrefix }: { form: CompanyForm; idPrefix: string }) {
  const { t } = useTranslation();
  const {
    register,
    formState: { errors },
  } = form;
  const fieldError = (message: string | undefined) => fieldErrorText(t, message);
  return (
    <>
      <CompanyFields
        idPrefix={idPrefix}
        register={(name) => register(`company.${name}`)}
        errors={{
          business_name: fieldError(errors.company?.business_name?.message),
          business_code: fieldError(errors.company?.business_code?.message),
          vat_number: fieldError(errors.company?.vat_number?.message),
          street: fieldError(errors.company?.address?.street?.message),
          city: fieldError(errors.company?.address?.city?.message),
          postal_code: fieldError(errors.company?.address?.postal_code?.message),
        }}
      />
      <CountrySelect
        id={`${idPrefix}-country`}
        label={t('settings.company.country')}
        error={fieldError(errors.country?.message)}
        data-testid={`${idPrefix}-country`}
        {...register('country')}
      />
    </>
  );
}
