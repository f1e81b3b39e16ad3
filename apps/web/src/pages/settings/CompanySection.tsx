// Company details (spec §2, §6): a business account corrects them itself until the first invoice
// names them, then sees them read-only (support changes them; the API holds the same rule); a
// personal account can convert to business, after confirming that this is permanent.
import { userSchema, type User } from '@debesis/contract';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api, isApiError } from '../../api/client.ts';
import { updateSessionUser } from '../../auth/session.ts';
import { DefinitionList, type Definition } from '../../components/DefinitionList.tsx';
import { FormAlert } from '../../components/form/fields.tsx';
import { countryName } from '../../forms/countries.ts';
import { useLanguage } from '../../i18n/language.ts';
import { toBusinessDetails, type CompanyConversionValues } from '../auth/schemas.ts';
import { NO_FILTERS, useInvoices } from '../billing/billing-api.ts';
import { failureText } from './account-forms.ts';
import { CompanyFormFields, showServerFieldErrors, useCompanyForm } from './company-form.tsx';
import { ActionRow } from '../../components/form/ActionRow.tsx';
import { BusyButton } from '../../components/form/BusyButton.tsx';
import { SettingsSection } from './SettingsSection.tsx';

export const CONVERT_TO_BUSINESS_PATH = '/api/v1/users/me/convert-to-business';
export const COMPANY_PATH = '/api/v1/users/me/company';

export function CompanySection({ user }: { user: User }) {
  const { t } = useTranslation();
  const [converted, setConverted] = useState(false);
  return (
    <SettingsSection name="company" title={t('settings.company.title')}>
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
    </SettingsSection>
  );
}

const COMPANY_ROWS = ['name', 'code', 'vatNumber', 'country', 'address'] as const;
type CompanyRow = (typeof COMPANY_ROWS)[number];

/** The company's details in one order and one wording, as the account has them or as the conversion will store them. */
function companyRows(
  t: TFunction,
  values: Record<CompanyRow, string>,
  testIds: Partial<Record<CompanyRow, string>>,
): Definition[] {
  return COMPANY_ROWS.map((row) => ({
    term: t(`settings.company.${row}`),
    value: values[row],
    testId: testIds[row],
  }));
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
      <DefinitionList
        className="detail-list"
        testId="settings-company"
        items={companyRows(
          t,
          {
            name: company?.name || none,
            code: company?.code || none,
            vatNumber: company?.vat_number || none,
            country: company?.country ? countryName(company.country, language) : none,
            address: address || none,
          },
          { name: 'settings-company-name' },
        )}
      />
      <CompanyCorrection user={user} />
    </>
  );
}

/**
 * Offered only when the invoice list is known to be empty: while it loads or fails, the details
 * read as locked, which is what the API answers once an invoice exists.
 */
function CompanyCorrection({ user }: { user: User }) {
  const { t } = useTranslation();
  const invoices = useInvoices(NO_FILTERS, 1);
  const [editing, setEditing] = useState(false);
  const [saved, setSaved] = useState(false);
  const form = useCompanyForm(user);
  const correct = useMutation({
    mutationFn: (values: CompanyConversionValues) =>
      api.put(COMPANY_PATH, { business_details: toBusinessDetails(values) }, userSchema),
    onSuccess: (updated) => {
      updateSessionUser(updated);
      setEditing(false);
      setSaved(true);
    },
    onError: (error) => showServerFieldErrors(form, error),
  });
  const refusal = isApiError(correct.error) ? correct.error : null;
  const lockedByServer = refusal?.detail === 'company_details_locked';
  const editable = invoices.data?.total === 0 && !lockedByServer;

  if (!editable) {
    return (
      <>
        {lockedByServer && (
          <FormAlert tone="error" testId="settings-company-error">
            {refusal.message}
          </FormAlert>
        )}
        <p className="text-muted settings-note">
          {t('settings.company.locked')}{' '}
          <Link to="/contact" data-testid="settings-contact-support">
            {t('settings.company.contactSupport')}
          </Link>
        </p>
      </>
    );
  }
  if (!editing) {
    return (
      <>
        {saved && (
          <FormAlert tone="success" testId="settings-company-saved">
            {t('settings.company.corrected')}
          </FormAlert>
        )}
        <p className="text-muted settings-note">{t('settings.company.correctable')}</p>
        <button
          type="button"
          className="btn btn--secondary"
          onClick={() => {
            form.reset(undefined, { keepDefaultValues: true });
            setSaved(false);
            setEditing(true);
          }}
          data-testid="settings-company-edit"
        >
          {t('settings.company.correct')}
        </button>
      </>
    );
  }
  return (
    <form
      className="form"
      noValidate
      data-testid="settings-company-form"
      onSubmit={(event) => void form.handleSubmit((values) => correct.mutate(values))(event)}
    >
      <CompanyFormFields form={form} idPrefix="settings-company" />
      {/* Field errors stand at their fields; anything else is said once here. */}
      {correct.isError && Object.keys(refusal?.fieldErrors ?? {}).length === 0 && (
        <FormAlert tone="error" testId="settings-company-error">
          {failureText(correct.error, t, t('settings.company.correctFailed'))}
        </FormAlert>
      )}
      <ActionRow
        action={
          <BusyButton
            busy={correct.isPending}
            label={t('settings.company.save')}
            busyLabel={t('settings.company.saving')}
            testId="settings-company-save"
          />
        }
        secondary={{
          label: t('settings.company.cancel'),
          onClick: () => setEditing(false),
          testId: 'settings-company-cancel',
        }}
        busy={correct.isPending}
      />
    </form>
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
    <DefinitionList
      className="detail-list convert-confirm__summary"
      testId="settings-convert-summary"
      items={companyRows(
        t,
        {
          name: details.business_name,
          code: details.business_code,
          vatNumber: details.vat_number ?? t('settings.company.noVatNumber'),
          country: countryName(details.country, language),
          address,
        },
        { vatNumber: 'settings-convert-summary-vat' },
      )}
    />
  );
}

type Step = 'closed' | 'details' | 'confirm';

function ConvertToBusiness({ user, onConverted }: { user: User; onConverted: () => void }) {
  const { t } = useTranslation();
  const [step, setStep] = useState<Step>('closed');
  const form = useCompanyForm(user);

  const convert = useMutation({
    mutationFn: (values: CompanyConversionValues) =>
      api.post(CONVERT_TO_BUSINESS_PATH, { business_details: toBusinessDetails(values) }, userSchema),
    onSuccess: (updated) => {
      updateSessionUser(updated);
      setStep('closed');
      onConverted();
    },
    onError: (error) => {
      if (showServerFieldErrors(form, error)) setStep('details');
    },
  });

  function failure(error: unknown): string {
    // Spec §8: the server's words for what it refused (already business, invalid data), the
    // conversion's own message for everything else.
    if (isApiError(error) && (error.status === 409 || error.status === 422)) return error.message;
    if (isApiError(error) && error.status === 0) return error.message;
    return t('settings.company.failed');
  }

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
    const values = form.getValues();
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
        <ActionRow
          action={
            <BusyButton
              busy={convert.isPending}
              label={t('settings.company.confirm')}
              busyLabel={t('settings.company.converting')}
              type="button"
              className="btn btn--danger"
              onClick={() => convert.mutate(values)}
              testId="settings-convert-confirm"
            />
          }
          secondary={{
            label: t('settings.company.back'),
            onClick: () => setStep('details'),
            testId: 'settings-convert-back',
          }}
          busy={convert.isPending}
        />
      </div>
    );
  }

  return (
    <form
      className="form"
      noValidate
      data-testid="settings-convert-form"
      onSubmit={(event) => void form.handleSubmit(() => setStep('confirm'))(event)}
    >
      <CompanyFormFields form={form} idPrefix="settings-convert" />
      <ActionRow
        action={
          <button type="submit" className="btn btn--primary" data-testid="settings-convert-review">
            {t('settings.company.review')}
          </button>
        }
        secondary={{
          label: t('settings.company.cancel'),
          onClick: () => setStep('closed'),
          testId: 'settings-convert-cancel',
        }}
      />
    </form>
  );
}
