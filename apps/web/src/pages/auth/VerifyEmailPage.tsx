// Email verification (spec §2, §4, §8). With `?token=` from the email: verifies and says how it
// went. Without: "check your inbox" for the address registration or sign-in passed along, with a
// way to send the link again.
import { messageResponseSchema } from '@debesis/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useSearchParams } from 'react-router';
import { api, isApiError } from '../../api/client.ts';
import { tooManyAttemptsMessage } from '../../auth/login.ts';
import { FormAlert, InputField } from '../../components/form/fields.tsx';
import { useDocumentTitle } from '../../components/useDocumentTitle.ts';
import { useContractForm } from '../../forms/use-contract-form.ts';
import '../../i18n/accounts-messages.ts';
import { emailFormSchema, type EmailFormValues } from './schemas.ts';
import './auth.css';
import { BusyButton } from '../../components/form/BusyButton.tsx';

export const VERIFY_EMAIL_PATH = '/api/v1/auth/verify-email';
export const RESEND_VERIFICATION_PATH = '/api/v1/auth/resend-verification';

/** Router state the register and login pages leave here. */
export interface VerifyEmailState {
  email?: string;
  message?: 'verify_before_sign_in';
}

function readState(state: unknown): VerifyEmailState {
  if (typeof state !== 'object' || state === null) return {};
  const { email, message } = state as VerifyEmailState;
  return {
    email: typeof email === 'string' && email ? email : undefined,
    message: message === 'verify_before_sign_in' ? message : undefined,
  };
}

export function VerifyEmailPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('verifyEmail.title'));
  const [params] = useSearchParams();
  const token = params.get('token');
  return (
    <section className="card auth-card" aria-labelledby="verify-email-title">
      {token ? <VerifyToken token={token} /> : <CheckInbox />}
    </section>
  );
}

function VerifyToken({ token }: { token: string }) {
  const { t } = useTranslation();
  // A query rather than an effect: one request per token, however often the page renders.
  const verification = useQuery({
    queryKey: ['verify-email', token],
    queryFn: () => api.post(VERIFY_EMAIL_PATH, { token }, messageResponseSchema),
    retry: false,
    staleTime: Infinity,
    gcTime: Infinity,
  });

  if (verification.isPending) {
    return (
      <div className="auth-status" role="status" data-testid="verify-email-pending">
        <span className="spinner" aria-hidden="true" />
        <h1 id="verify-email-title" className="auth-card__title">
          {t('verifyEmail.verifying')}
        </h1>
      </div>
    );
  }
  if (verification.isSuccess) {
    return (
      <div data-testid="verify-email-success">
        <h1 id="verify-email-title" className="auth-card__title">
          {t('verifyEmail.successTitle')}
        </h1>
        {/* The server's words, in the visitor's language: they say whether a password is still to be
            chosen (an address registered twice with different passwords keeps neither). */}
        <FormAlert tone="success" testId="verify-email-success-message">
          {verification.data.message || t('verifyEmail.successBody')}
        </FormAlert>
        <Link to="/auth/login" className="btn btn--primary btn--block" data-testid="verify-email-sign-in">
          {t('verifyEmail.signIn')}
        </Link>
      </div>
    );
  }
  const { error } = verification;
  const reachedServer = isApiError(error) && error.status > 0 && error.status !== 500;
  return (
    <div data-testid="verify-email-failed">
      <h1 id="verify-email-title" className="auth-card__title">
        {t('verifyEmail.failedTitle')}
      </h1>
      <FormAlert tone="error" testId="verify-email-error">
        {reachedServer || !isApiError(error) ? t('errors.verification_link_invalid') : error.message}
      </FormAlert>
      <p className="text-muted">{t('verifyEmail.requestNew')}</p>
      <ResendForm />
      <p className="auth-card__footer">
        <Link to="/auth/login">{t('auth.backToSignIn')}</Link>
      </p>
    </div>
  );
}

function CheckInbox() {
  const { t } = useTranslation();
  const location = useLocation();
  const [params] = useSearchParams();
  const state = readState(location.state);
  const email = state.email ?? params.get('email') ?? undefined;
  return (
    <div data-testid="verify-email-check-inbox">
      <h1 id="verify-email-title" className="auth-card__title">
        {t('verifyEmail.checkInbox')}
      </h1>
      {state.message && (
        <FormAlert tone="warning" testId="verify-email-message">
          {t(`verifyEmail.messages.${state.message}`)}
        </FormAlert>
      )}
      <p data-testid="verify-email-sent-to">
        {email ? t('verifyEmail.sentTo', { email }) : t('verifyEmail.sentGeneric')}
      </p>
      <p className="text-muted">{t('verifyEmail.notArrived')}</p>
      <ResendForm email={email} />
      <p className="auth-card__footer">
        <Link to="/auth/login" data-testid="verify-email-back">
          {t('auth.backToSignIn')}
        </Link>
      </p>
    </div>
  );
}

/** POST resend-verification; the answer is the same whether or not the address exists. */
function ResendForm({ email }: { email?: string | undefined }) {
  const { t } = useTranslation();
  const { field, handleSubmit } = useContractForm({
    schema: emailFormSchema,
    defaultValues: { email: email ?? '' },
  });
  const resend = useMutation({
    mutationFn: (values: EmailFormValues) =>
      api.post(RESEND_VERIFICATION_PATH, { email: values.email.trim() }, messageResponseSchema),
  });

  return (
    <form
      className="form"
      noValidate
      data-testid="verify-email-resend-form"
      onSubmit={(event) => void handleSubmit((values) => resend.mutate(values))(event)}
    >
      {resend.isSuccess && (
        <FormAlert tone="success" testId="verify-email-resent">
          {t('verifyEmail.resent')}
        </FormAlert>
      )}
      {resend.isError && (
        <FormAlert tone="error" testId="verify-email-resend-error">
          {isApiError(resend.error) && resend.error.status === 429
            ? tooManyAttemptsMessage(resend.error, t)
            : isApiError(resend.error)
              ? resend.error.message
              : t('clientErrors.unknown_error')}
        </FormAlert>
      )}
      {!email && (
        <InputField
          id="verify-email-email"
          type="email"
          label={t('verifyEmail.email')}
          autoComplete="email"
          inputMode="email"
          required
          data-testid="verify-email-email"
          {...field('email')}
        />
      )}
      <BusyButton
        busy={resend.isPending}
        label={t('verifyEmail.resend')}
        busyLabel={t('verifyEmail.resending')}
        className="btn btn--secondary btn--block"
        testId="verify-email-resend"
      />
    </form>
  );
}
