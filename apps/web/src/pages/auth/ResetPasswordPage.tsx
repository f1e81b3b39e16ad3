// Choosing a new password from the emailed link (spec §2, §7, §8). The answer carries tokens like
// a sign-in; they are kept and the visitor lands signed in, as after any sign-in.
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { z } from 'zod';
import { api, isApiError } from '../../api/client.ts';
import { afterLogin } from '../../auth/after-login.ts';
import { commonSignInError, signInWithAnswer } from '../../auth/login.ts';
import { FormAlert, InputField } from '../../components/form/fields.tsx';
import { useDocumentTitle } from '../../components/useDocumentTitle.ts';
import { useContractForm } from '../../forms/use-contract-form.ts';
import '../../i18n/accounts-messages.ts';
import { newPasswordFormSchema, type NewPasswordFormValues } from './schemas.ts';
import './auth.css';
import { BusyButton } from '../../components/form/BusyButton.tsx';

export const RESET_PASSWORD_PATH = '/api/v1/auth/reset-password';

async function resetPassword(token: string, password: string): Promise<void> {
  const answer = await api.post(RESET_PASSWORD_PATH, { token, password }, z.unknown());
  await signInWithAnswer(answer);
}

export function ResetPasswordPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('resetPassword.title'));
  const [params] = useSearchParams();
  const token = params.get('token');
  const navigate = useNavigate();
  const location = useLocation();
  const { field, handleSubmit } = useContractForm({
    schema: newPasswordFormSchema,
    defaultValues: { password: '', confirmPassword: '' },
  });
  const reset = useMutation({
    mutationFn: (values: NewPasswordFormValues) => resetPassword(token ?? '', values.password),
    onSuccess: () => afterLogin({ from: null, pathname: location.pathname, navigate }),
  });

  function errorMessage(error: unknown): string {
    if (isApiError(error) && error.detail === 'reset_link_invalid') return t('errors.reset_link_invalid');
    const common = commonSignInError(error, t);
    if (common !== null) return common;
    if (isApiError(error) && error.status === 422 && error.fieldErrors.password)
      return error.fieldErrors.password;
    return t('errors.reset_link_invalid');
  }

  if (!token) {
    return (
      <section
        className="card auth-card"
        aria-labelledby="reset-title"
        data-testid="reset-password-missing-token"
      >
        <h1 id="reset-title" className="auth-card__title">
          {t('resetPassword.title')}
        </h1>
        <FormAlert tone="error">{t('resetPassword.missingToken')}</FormAlert>
        <Link to="/auth/forgot-password" className="btn btn--primary btn--block">
          {t('resetPassword.requestNew')}
        </Link>
      </section>
    );
  }

  const linkInvalid = isApiError(reset.error) && reset.error.detail === 'reset_link_invalid';
  return (
    <section className="card auth-card" aria-labelledby="reset-title">
      <h1 id="reset-title" className="auth-card__title">
        {t('resetPassword.title')}
      </h1>
      <p className="text-muted">{t('resetPassword.lead')}</p>
      {reset.isError && (
        <FormAlert tone="error" testId="reset-password-error">
          {errorMessage(reset.error)}{' '}
          {linkInvalid && (
            <Link to="/auth/forgot-password" data-testid="reset-password-request-new">
              {t('resetPassword.requestNew')}
            </Link>
          )}
        </FormAlert>
      )}
      <form
        className="form"
        noValidate
        data-testid="reset-password-form"
        onSubmit={(event) => void handleSubmit((values) => reset.mutate(values))(event)}
      >
        <InputField
          id="reset-password-password"
          type="password"
          label={t('resetPassword.password')}
          hint={t('register.passwordHint')}
          autoComplete="new-password"
          required
          data-testid="reset-password-password"
          {...field('password')}
        />
        <InputField
          id="reset-password-confirm"
          type="password"
          label={t('resetPassword.confirmPassword')}
          autoComplete="new-password"
          required
          data-testid="reset-password-confirm"
          {...field('confirmPassword')}
        />
        <BusyButton
          busy={reset.isPending}
          label={t('resetPassword.submit')}
          busyLabel={t('resetPassword.submitting')}
          className="btn btn--primary btn--block"
          testId="reset-password-submit"
        />
      </form>
    </section>
  );
}
