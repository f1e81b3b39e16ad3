// Billing info (spec §3, §5): who invoices are made out to. The form checks the spec's
// completeness rule with the contract's own schema before it sends, and shows the server's field
// errors when it refuses; incomplete data saved earlier (or prefilled) prompts an update.
import {
  BILLING_INFO_FIELDS,
  updateBillingInfoRequestSchema,
  type BillingInfo,
  type BillingInfoField,
  type UpdateBillingInfoRequest,
} from '@debesis/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm, type FieldPath } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/client.ts';
import { FormAlert, InputField, SelectField } from '../../components/form/fields.tsx';
import { countryOptions } from '../../forms/countries.ts';
import { fieldErrorText, formErrorMap } from '../../forms/messages.ts';
import { refineVatNumber } from '../../forms/vat-number.ts';
import { useLanguage } from '../../i18n/language.ts';
import { useUpdateBillingInfo } from './billing-api.ts';
import { BusyButton } from '../../components/form/BusyButton.tsx';

/** The request as typed: the schema's input (the server and the resolver apply its transforms). */
type BillingInfoFormValues = UpdateBillingInfoRequest;

const FIELD_KEYS = {
  company_name: 'company_name',
  vat_number: 'vat_number',
  'billing_address.street': 'street',
  'billing_address.city': 'city',
  'billing_address.postal_code': 'postal_code',
  'billing_address.country': 'country',
} as const satisfies Record<BillingInfoField, string>;

const isFormField = (field: string): field is FieldPath<BillingInfoFormValues> =>
  (BILLING_INFO_FIELDS as readonly string[]).includes(field) || field === 'billing_address.state';

/** The contract's rules, and the VAT number's format and check digits as the server checks them. */
const billingInfoFormSchema = updateBillingInfoRequestSchema.superRefine((value, context) =>
  refineVatNumber(value.vat_number, value.billing_address.country, context, ['vat_number']),
);

/**
 * Whether a private person's invoice has what it needs: it is made out to the account's name, and
 * the country sets its VAT. The address the spec's "complete" also asks for is then only offered,
 * not pressed for (a private person who already paid was told, on every visit, to complete it).
 */
export function privateInvoiceReady(info: Pick<BillingInfo, 'company_name' | 'billing_address'>): boolean {
  return !info.company_name?.trim() && info.billing_address.country.trim() !== '';
}

function valuesOf(info: BillingInfo): BillingInfoFormValues {
  return {
    company_name: info.company_name ?? '',
    vat_number: info.vat_number ?? '',
    billing_address: { ...info.billing_address },
  };
}

export function BillingInfoForm({ info }: { info: BillingInfo }) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const [saved, setSaved] = useState(false);
  const update = useUpdateBillingInfo();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<BillingInfoFormValues>({
    resolver: zodResolver(billingInfoFormSchema, { error: formErrorMap }, { raw: true }),
    defaultValues: valuesOf(info),
  });

  const submit = handleSubmit((values) => {
    setSaved(false);
    update.mutate(values, {
      onSuccess: () => setSaved(true),
      onError: (error) => {
        if (!isApiError(error)) return;
        for (const [field, message] of Object.entries(error.fieldErrors)) {
          if (isFormField(field)) setError(field, { type: 'server', message });
        }
      },
    });
  });

  const missing = info.missing.map((field) => t(`billing.info.fields.${FIELD_KEYS[field]}`)).join(', ');
  const error = (message: string | undefined) => fieldErrorText(t, message);
  const addressErrors = errors.billing_address;
  const refused = update.isError && isApiError(update.error) && update.error.status === 422;

  return (
    <section className="card billing-section" aria-labelledby="billing-info-title" data-testid="billing-info">
      <h2 id="billing-info-title" className="billing-section__title">
        {t('billing.info.title')}
      </h2>
      <p className="text-muted">{t('billing.info.lead')}</p>
      {!info.complete && !saved && !privateInvoiceReady(info) && (
        <FormAlert tone="warning" testId="billing-info-incomplete">
          {t('billing.info.incomplete')} {missing && t('billing.info.missing', { fields: missing })}
        </FormAlert>
      )}
      {!info.complete && !saved && privateInvoiceReady(info) && (
        <p className="text-muted" data-testid="billing-info-address-optional">
          {t('billing.info.addressOptional')}
        </p>
      )}
      {info.complete && !info.saved && !saved && (
        <FormAlert tone="info" testId="billing-info-prefilled">
          {t('billing.info.prefilled')}
        </FormAlert>
      )}
      {saved && (
        <FormAlert tone="success" testId="billing-info-saved">
          {t('billing.info.saved')}
        </FormAlert>
      )}
      {update.isError && (
        <FormAlert tone="error" testId="billing-info-error">
          {refused ? t('billing.info.invalid') : t('billing.info.updateFailed')}
        </FormAlert>
      )}
      <form className="billing-info-form" noValidate onSubmit={(event) => void submit(event)}>
        <InputField
          id="billing-company-name"
          label={t('billing.info.companyName')}
          hint={t('billing.info.companyHint')}
          optional
          autoComplete="organization"
          error={error(errors.company_name?.message)}
          {...register('company_name')}
        />
        <InputField
          id="billing-vat-number"
          label={t('billing.info.vatNumber')}
          hint={t('billing.info.vatHint')}
          error={error(errors.vat_number?.message)}
          {...register('vat_number')}
        />
        <InputField
          id="billing-street"
          label={t('billing.info.street')}
          required
          autoComplete="street-address"
          error={error(addressErrors?.street?.message)}
          {...register('billing_address.street')}
        />
        <InputField
          id="billing-city"
          label={t('billing.info.city')}
          required
          autoComplete="address-level2"
          error={error(addressErrors?.city?.message)}
          {...register('billing_address.city')}
        />
        <InputField
          id="billing-state"
          label={t('billing.info.state')}
          optional
          autoComplete="address-level1"
          error={error(addressErrors?.state?.message)}
          {...register('billing_address.state')}
        />
        <InputField
          id="billing-postal-code"
          label={t('billing.info.postalCode')}
          required
          autoComplete="postal-code"
          error={error(addressErrors?.postal_code?.message)}
          {...register('billing_address.postal_code')}
        />
        <SelectField
          id="billing-country"
          label={t('billing.info.country')}
          required
          autoComplete="country"
          error={error(addressErrors?.country?.message)}
          {...register('billing_address.country')}
        >
          <option value="">{t('billing.info.chooseCountry')}</option>
          {countryOptions(language).map(({ code, name }) => (
            <option key={code} value={code}>
              {name}
            </option>
          ))}
        </SelectField>
        <div className="button-row">
          <BusyButton
            busy={update.isPending}
            label={t('billing.info.save')}
            busyLabel={t('billing.info.saving')}
            testId="billing-info-save"
          />
        </div>
      </form>
    </section>
  );
}
