// The company fields of registration and of the business conversion in settings (spec §3, §5):
// name, code, optional VAT number and address; the country is its own select.
import type { Ref, SelectHTMLAttributes } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { InputField, SelectField } from '../../components/form/fields.tsx';
import { countryOptions } from '../../forms/countries.ts';
import { useLanguage } from '../../i18n/language.ts';

export type CompanyFieldName =
  | 'business_name'
  | 'business_code'
  | 'vat_number'
  | 'address.street'
  | 'address.city'
  | 'address.postal_code';

interface CompanyFieldsProps {
  idPrefix: string;
  register: (name: CompanyFieldName) => UseFormRegisterReturn;
  /** Translated messages by field. */
  errors: Partial<
    Record<'business_name' | 'business_code' | 'vat_number' | 'street' | 'city' | 'postal_code', string>
  >;
}

export function CompanyFields({ idPrefix, register, errors }: CompanyFieldsProps) {
  const { t } = useTranslation();
  return (
    <>
      <InputField
        id={`${idPrefix}-business-name`}
        label={t('register.businessName')}
        autoComplete="organization"
        required
        error={errors.business_name}
        data-testid={`${idPrefix}-business-name`}
        {...register('business_name')}
      />
      <div className="form__row">
        <InputField
          id={`${idPrefix}-business-code`}
          label={t('register.businessCode')}
          autoComplete="off"
          required
          error={errors.business_code}
          data-testid={`${idPrefix}-business-code`}
          {...register('business_code')}
        />
        <InputField
          id={`${idPrefix}-vat-number`}
          label={t('register.vatNumber')}
          hint={t('register.vatHint')}
          optional
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          error={errors.vat_number}
          data-testid={`${idPrefix}-vat-number`}
          {...register('vat_number')}
        />
      </div>
      <InputField
        id={`${idPrefix}-street`}
        label={t('register.street')}
        autoComplete="street-address"
        required
        error={errors.street}
        data-testid={`${idPrefix}-street`}
        {...register('address.street')}
      />
      <div className="form__row">
        <InputField
          id={`${idPrefix}-city`}
          label={t('register.city')}
          autoComplete="address-level2"
          required
          error={errors.city}
          data-testid={`${idPrefix}-city`}
          {...register('address.city')}
        />
        <InputField
          id={`${idPrefix}-postal-code`}
          label={t('register.postalCode')}
          autoComplete="postal-code"
          optional
          error={errors.postal_code}
          data-testid={`${idPrefix}-postal-code`}
          {...register('address.postal_code')}
        />
      </div>
    </>
  );
}

type CountrySelectProps = Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id' | 'children'> & {
  id: string;
  label: string;
  hint?: string | undefined;
  error?: string | undefined;
  ref?: Ref<HTMLSelectElement>;
};

/** Every country, named and sorted in the interface language. */
export function CountrySelect({ id, label, hint, error, ...selectProps }: CountrySelectProps) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  return (
    <SelectField
      id={id}
      label={label}
      hint={hint}
      error={error}
      required
      autoComplete="country"
      {...selectProps}
    >
      <option value="">{t('register.chooseCountry')}</option>
      {countryOptions(language).map(({ code, name }) => (
        <option key={code} value={code}>
          {name}
        </option>
      ))}
    </SelectField>
  );
}
