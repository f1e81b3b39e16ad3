// Registration (spec §2, §3, §5, §8): personal or business account, country filled in from
// detect-country, password rules of the contract, OAuth. Success leads to verify-email, which
// asks the visitor to open the mailed link: the answer carries no tokens, as nobody is signed in
// before the address is verified (sign-in comes after, with the pending-plan check).
import { detectCountryResponseSchema, registerResponseSchema, type AccountType } from '@debesis/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { serverMessage } from '../../api/api-error.ts';
import { api, isApiError } from '../../api/client.ts';
import { commonSignInError } from '../../auth/login.ts';
import { DEFAULT_AFTER_LOGIN_PATH } from '../../auth/after-login.ts';
import { useDocumentTitle } from '../../components/useDocumentTitle.ts';
import { EmailField, NewPasswordFields, PersonNameFields } from '../../forms/account-fields.tsx';
import { useContractForm } from '../../forms/use-contract-form.ts';
import '../../i18n/accounts-messages.ts';
import { AuthCard, AuthForm } from './AuthCard.tsx';
import { CompanyFields, CountrySelect } from './CompanyFields.tsx';
import { OAuthButtons } from './OAuthButtons.tsx';
import { SelectedPlanSummary } from './SelectedPlanSummary.tsx';
import { EMPTY_COMPANY, registerFormSchema, toRegisterRequest, type RegisterFormValues } from './schemas.ts';

export const REGISTER_PATH = '/api/v1/auth/register';
export const DETECT_COUNTRY_PATH = '/api/v1/auth/detect-country';

export function RegisterPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('register.title'));
  const navigate = useNavigate();

  const form = useContractForm({
    schema: registerFormSchema,
    // The company's country is the account's: the server's message for it goes there.
    renamed: { 'business_details.country': 'country' },
    defaultValues: {
      accountType: 'personal',
      firstName: '',
      lastName: '',
      email: '',
      password: '',
      confirmPassword: '',
      country: '',
      business_details: EMPTY_COMPANY,
    },
  });
  const { control, setValue, getFieldState } = form;
  const { dirtyFields } = form.formState;
  const accountType = useWatch({ control, name: 'accountType' });

  const detected = useQuery({
    queryKey: ['detect-country'],
    queryFn: () => api.get(DETECT_COUNTRY_PATH, detectCountryResponseSchema),
    retry: false,
    staleTime: Infinity,
  });
  const detectedCountry = detected.data?.country ?? null;
  useEffect(() => {
    // Filled in once, and never over a choice the visitor already made.
    if (detectedCountry && !getFieldState('country').isDirty) {
      setValue('country', detectedCountry.toUpperCase(), { shouldValidate: false });
    }
  }, [detectedCountry, getFieldState, setValue]);

  const registration = useMutation({
    mutationFn: (values: RegisterFormValues) =>
      api.post(REGISTER_PATH, toRegisterRequest(values), registerResponseSchema),
    onSuccess: (_answer, values) => navigate('/auth/verify-email', { state: { email: values.email.trim() } }),
    onError: (error, values) => {
      if (!isApiError(error)) return;
      const action = (error.data as { action?: unknown } | undefined)?.action;
      if (error.detail === 'email_registered' && action === 'login') {
        void navigate('/auth/login', { state: { email: values.email.trim(), notice: 'email_registered' } });
      }
    },
  });

  function errorMessage(error: unknown): string {
    if (isApiError(error)) {
      if (error.detail === 'email_registered') {
        const action = (error.data as { action?: unknown } | undefined)?.action;
        return action === 'login' ? t('errors.email_registered') : t('register.errors.updateFailed');
      }
      const common = commonSignInError(error, t);
      if (common !== null) return common;
      // The server's message when it gave one (a 500 included, spec §8), else the general text.
      return serverMessage(error) ?? t('register.errors.failed');
    }
    return t('register.errors.failed');
  }

  function chooseType(type: AccountType): void {
    setValue('accountType', type);
  }

  return (
    <AuthCard titleId="register-title" title={t('register.title')} lead={t('register.lead')} wide>
      <SelectedPlanSummary />

      <AuthForm
        name="register"
        onSubmit={form.submitTo(registration)}
        change={registration}
        failure={errorMessage}
        submitLabel={t('register.submit')}
        busyLabel={t('register.submitting')}
      >
        <fieldset className="fieldset">
          <legend className="field__label">{t('register.accountType')}</legend>
          <div className="segmented segmented--block" role="group" data-testid="register-account-type">
            {(['personal', 'business'] as const).map((type) => (
              <button
                key={type}
                type="button"
                className="segmented__option"
                aria-pressed={accountType === type}
                data-testid={`register-account-type-${type}`}
                onClick={() => chooseType(type)}
              >
                {t(`register.${type}`)}
              </button>
            ))}
          </div>
          {accountType === 'business' && <p className="field__hint">{t('register.businessHint')}</p>}
        </fieldset>

        <PersonNameFields
          idPrefix="register"
          labels={{ first: t('register.firstName'), last: t('register.lastName') }}
          first={form.field('firstName')}
          last={form.field('lastName')}
        />
        <EmailField id="register-email" label={t('register.email')} {...form.field('email')} />
        <NewPasswordFields
          ids={{ password: 'register-password', confirm: 'register-confirm-password' }}
          labels={{
            password: t('register.password'),
            hint: t('register.passwordHint'),
            confirm: t('register.confirmPassword'),
          }}
          password={form.field('password')}
          confirm={form.field('confirmPassword')}
        />
        <CountrySelect
          id="register-country"
          label={t('register.country')}
          hint={detectedCountry && !dirtyFields.country ? t('register.countryDetected') : undefined}
          data-testid="register-country"
          {...form.field('country')}
        />

        {accountType === 'business' && (
          <fieldset className="fieldset form" data-testid="register-business-fields">
            <legend className="fieldset__title">{t('register.companyDetails')}</legend>
            <p className="field__hint">{t('register.companyNote')}</p>
            <CompanyFields
              idPrefix="register"
              register={(name) => form.register(`business_details.${name}`)}
              errors={{
                business_name: form.errorText('business_details.business_name'),
                business_code: form.errorText('business_details.business_code'),
                vat_number: form.errorText('business_details.vat_number'),
                street: form.errorText('business_details.address.street'),
                city: form.errorText('business_details.address.city'),
                postal_code: form.errorText('business_details.address.postal_code'),
              }}
            />
          </fieldset>
        )}
      </AuthForm>

      <OAuthButtons redirect={DEFAULT_AFTER_LOGIN_PATH} />

      <p className="auth-card__footer">
        {t('register.haveAccount')}{' '}
        <Link to="/auth/login" data-testid="register-sign-in">
          {t('register.signIn')}
        </Link>
      </p>
    </AuthCard>
  );
}
