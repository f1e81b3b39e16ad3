// Company details (spec §2, §6): a business account sees them read-only (support changes them);
// a personal account can convert to business, after confirming that this is permanent.
import { userSchema, type User } from '@debesis/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm, type FieldPath } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api, isApiError } from '../../api/client.ts';
import { updateSessionUser } from '../../auth/session.ts';
import { FormAlert } from '../../components/form/fields.tsx';
import { countryName } from '../../forms/countries.ts';
import { fieldErrorText, formErrorMap } from '../../forms/messages.ts';
import { useLanguage } from '../../i18n/language.ts';
import { CompanyFields, CountrySelect } from '../auth/CompanyFields.tsx';
import {
  companyFormSchema,
  EMPTY_COMPANY,
  toBusinessDetails,
  type CompanyConversionValues,
} from '../auth/schemas.ts';

export const CONVERT_TO_BUSINESS_PATH = '/api/v1/users/me/convert-to-business';

export function CompanySection({ user }: { user: User }) {
  const { t } = useTranslation();
  const [converted, setConverted] = useState(false);
  return (
    <section className="card settings-section" aria-labelledby="settings-company-title">
      <h2 id="settings-company-title" className="settings-section__title">
        {t('settings.company.title')}
      </h2>
      {converted && (
        <FormAlert tone="success" testId="settings-convert-success">
          {t('settings.company.converted')}
        </FormAlert>
      )}
      {user.account_type === 'business' ? (
        <CompanyDetails user={user} />
      ) : (
        <ConvertToBusiness user={user} onConverted={() => setConverted(true)} />
      )}
    </section>
  );
}

function CompanyDetails({ user }: { user: User }) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const company = user.company;
  const none = t('settings.company.none');
  const address = company
    ? [company.address.street, company.address.postal_code, company.address.city, company.address.state]
        .filter(Boolean)
        .join(', ')
    : '';
  return (
    <>
      <dl className="detail-list" data-testid="settings-company">
        <div>
          <dt>{t('settings.company.name')}</dt>
          <dd data-testid="settings-company-name">{company?.name || none}</dd>
        </div>
        <div>
          <dt>{t('settings.company.code')}</dt>
          <dd>{company?.code || none}</dd>
        </div>
        <div>
          <dt>{t('settings.company.vatNumber')}</dt>
          <dd>{company?.vat_number || none}</dd>
        </div>
        <div>
          <dt>{t('settings.company.country')}</dt>
          <dd>{company?.country ? countryName(company.country, language) : none}</dd>
        </div>
        <div>
          <dt>{t('settings.company.address')}</dt>
          <dd>{address || none}</dd>
        </div>
      </dl>
      <p className="text-muted settings-note">
        {t('settings.company.locked')}{' '}
        <Link to="/contact" data-testid="settings-contact-support">
          {t('settings.company.contactSupport')}
        </Link>
      </p>
    </>
  );
}

/** The details the irreversible conversion fixes, VAT number included, read before confirming. */
function ConversionSummary({ details }: { details: ReturnType<typeof toBusinessDetails> }) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const address = [details.address.street, details.address.postal_code, details.address.city]
    .filter(Boolean)
    .join(', ');
  return (
    <dl className="detail-list convert-confirm__summary" data-testid="settings-convert-summary">
      <div>
        <dt>{t('settings.company.name')}</dt>
        <dd>{details.business_name}</dd>
      </div>
      <div>
        <dt>{t('settings.company.code')}</dt>
        <dd>{details.business_code}</dd>
      </div>
      <div>
        <dt>{t('settings.company.vatNumber')}</dt>
        <dd data-testid="settings-convert-summary-vat">
          {details.vat_number ?? t('settings.company.noVatNumber')}
        </dd>
      </div>
      <div>
        <dt>{t('settings.company.country')}</dt>
        <dd>{countryName(details.country, language)}</dd>
      </div>
      <div>
        <dt>{t('settings.company.address')}</dt>
        <dd>{address}</dd>
      </div>
    </dl>
  );
}

type Step = 'closed' | 'details' | 'confirm';

const FIELD_NAMES: Record<string, FieldPath<CompanyConversionValues>> = {
  'business_details.business_name': 'company.business_name',
  'business_details.business_code': 'company.business_code',
  'business_details.vat_number': 'company.vat_number',
  'business_details.address.street': 'company.address.street',
  'business_details.address.city': 'company.address.city',
  'business_details.address.postal_code': 'company.address.postal_code',
  'business_details.country': 'country',
};

function ConvertToBusiness({ user, onConverted }: { user: User; onConverted: () => void }) {
  const { t } = useTranslation();
  const [step, setStep] = useState<Step>('closed');
  const {
    register,
    handleSubmit,
    getValues,
    setError,
    formState: { errors },
  } = useForm<CompanyConversionValues>({
    resolver: zodResolver(companyFormSchema, { error: formErrorMap }),
    defaultValues: { country: user.country ?? '', company: EMPTY_COMPANY },
  });

  const convert = useMutation({
    mutationFn: (values: CompanyConversionValues) =>
      api.post(CONVERT_TO_BUSINESS_PATH, { business_details: toBusinessDetails(values) }, userSchema),
    onSuccess: (updated) => {
      updateSessionUser(updated);
      setStep('closed');
      onConverted();
    },
    onError: (error) => {
      if (!isApiError(error)) return;
      let shown = false;
      for (const [field, message] of Object.entries(error.fieldErrors)) {
        const name = FIELD_NAMES[field];
        if (!name) continue;
        setError(name, { type: 'server', message });
        shown = true;
      }
      if (shown) setStep('details');
    },
  });

  function failure(error: unknown): string {
    // Spec §8: the server's words for what it refused (already business, invalid data), the
    // conversion's own message for everything else.
    if (isApiError(error) && (error.status === 409 || error.status === 422)) return error.message;
    if (isApiError(error) && error.status === 0) return error.message;
    return t('settings.company.failed');
  }

  const fieldError = (message: string | undefined) => fieldErrorText(t, message);

  if (step === 'closed') {
    return (
      <>
        <p className="text-muted">{t('settings.company.personalLead')}</p>
        {convert.isError && (
          <FormAlert tone="error" testId="settings-convert-error">
            {failure(convert.error)}
          </FormAlert>
        )}
        <button
          type="button"
          className="btn btn--secondary"
          onClick={() => setStep('details')}
          data-testid="settings-convert-open"
        >
          {t('settings.company.convert')}
        </button>
      </>
    );
  }

  if (step === 'confirm') {
    const values = getValues();
    // What will be stored, as it will be stored (the VAT number upper case, without spaces).
    const details = toBusinessDetails(values);
    return (
      <div
        className="convert-confirm"
        role="alertdialog"
        aria-labelledby="convert-confirm-title"
        aria-describedby="convert-confirm-body"
        data-testid="settings-convert-confirm-step"
      >
        <h3 id="convert-confirm-title" className="settings-subtitle">
          {t('settings.company.confirmTitle')}
        </h3>
        <FormAlert tone="warning">
          <span id="convert-confirm-body">{t('settings.company.confirmBody')}</span>
        </FormAlert>
        <ConversionSummary details={details} />
        {convert.isError && (
          <FormAlert tone="error" testId="settings-convert-error">
            {failure(convert.error)}
          </FormAlert>
        )}
        <div className="button-row">
          <button
            type="button"
            className="btn btn--danger"
            disabled={convert.isPending}
            onClick={() => convert.mutate(values)}
            data-testid="settings-convert-confirm"
          >
            {convert.isPending ? t('settings.company.converting') : t('settings.company.confirm')}
          </button>
          <button
            type="button"
            className="btn btn--ghost"
            disabled={convert.isPending}
            onClick={() => setStep('details')}
            data-testid="settings-convert-back"
          >
            {t('settings.company.back')}
          </button>
        </div>
      </div>
    );
  }

  return (
    <form
      className="form"
      noValidate
      data-testid="settings-convert-form"
      onSubmit={(event) => void handleSubmit(() => setStep('confirm'))(event)}
    >
      <CompanyFields
        idPrefix="settings-convert"
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
        id="settings-convert-country"
        label={t('settings.company.country')}
        error={fieldError(errors.country?.message)}
        data-testid="settings-convert-country"
        {...register('country')}
      />
      <div className="button-row">
        <button type="submit" className="btn btn--primary" data-testid="settings-convert-review">
          {t('settings.company.review')}
        </button>
        <button
          type="button"
          className="btn btn--ghost"
          onClick={() => setStep('closed')}
          data-testid="settings-convert-cancel"
        >
          {t('settings.company.cancel')}
        </button>
      </div>
    </form>
  );
}
