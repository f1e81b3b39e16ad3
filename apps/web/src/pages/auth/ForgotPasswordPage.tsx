// Forgotten password (spec §2, §7): asks for a reset link. The answer is the same whether or not
// an account exists, so the page never tells which addresses are registered.
import { messageResponseSchema } from '@debesis/contract';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api, isApiError } from '../../api/client.ts';
import { tooManyAttemptsMessage } from '../../auth/login.ts';
import { FormAlert, InputField } from '../../components/form/fields.tsx';
import { useDocumentTitle } from '../../components/useDocumentTitle.ts';
import { useContractForm } from '../../forms/use-contract-form.ts';
import '../../i18n/accounts-messages.ts';
import { emailFormSchema, type EmailFormValues } from './schemas.ts';
import './auth.css';
import { BusyButton } from '../../components/form/BusyButton.tsx';

export const REQUEST_PASSWORD_RESET_PATH = '/api/v1/auth/request-password-reset';

export function ForgotPasswordPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('forgotPassword.title'));
  const { field, handleSubmit, reset } = useContractForm({
    schema: emailFormSchema,
    defaultValues: { email: '' },
  });
  const request = useMutation({
    mutationFn: (values: EmailFormValues) =>
      api.post(REQUEST_PASSWORD_RESET_PATH, { email: values.email.trim() }, messageResponseSchema),
  });

  if (request.isSuccess) {
    return (
      <section className="card auth-card" aria-labelledby="forgot-title" data-testid="forgot-password-sent">
        <h1 id="forgot-title" className="auth-card__title">
          {t('forgotPassword.sentTitle')}
        </h1>
        <FormAlert tone="success">
          {t('forgotPassword.sent', { email: request.variables.email.trim() })}
        </FormAlert>
        <div className="button-row button-row--stack">
          <Link to="/auth/login" className="btn btn--primary btn--block" data-testid="forgot-password-back">
            {t('auth.backToSignIn')}
          </Link>
          <button
            type="button"
            className="btn btn--ghost btn--block"
            onClick={() => {
              reset();
              request.reset();
            }}
          >
            {t('forgotPassword.sendAgain')}
          </button>
        </div>
      </section>
    );
  }

  return (
    <section className="card auth-card" aria-labelledby="forgot-title">
      <h1 id="forgot-title" className="auth-card__title">
        {t('forgotPassword.title')}
      </h1>
      <p className="text-muted">{t('forgotPassword.lead')}</p>
      {request.isError && (
        <FormAlert tone="error" testId="forgot-password-error">
          {isApiError(request.error) && request.error.status === 429
            ? tooManyAttemptsMessage(request.error, t)
            : isApiError(request.error)
              ? request.error.message
              : t('clientErrors.unknown_error')}
        </FormAlert>
      )}
      <form
        className="form"
        noValidate
        data-testid="forgot-password-form"
        onSubmit={(event) => void handleSubmit((values) => request.mutate(values))(event)}
      >
        <InputField
          id="forgot-password-email"
          type="email"
          label={t('forgotPassword.email')}
          autoComplete="email"
          inputMode="email"
          required
          data-testid="forgot-password-email"
          {...field('email')}
        />
        <BusyButton
          busy={request.isPending}
          label={t('forgotPassword.submit')}
          busyLabel={t('forgotPassword.submitting')}
          className="btn btn--primary btn--block"
          testId="forgot-password-submit"
        />
      </form>
      <p className="auth-card__footer">
        <Link to="/auth/login">{t('auth.backToSignIn')}</Link>
      </p>
    </section>
  );
}
