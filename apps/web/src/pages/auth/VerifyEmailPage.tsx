// Email verification (spec §2, §4, §8). With `?token=` from the email: verifies and says how it
// went. Without: "check your inbox" for the address registration or sign-in passed along, with a
// way to send the link again.
import { messageResponseSchema } from '@debesis/contract';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useSearchParams } from 'react-router';
import { api, isApiError } from '../../api/client.ts';
import { FormAlert } from '../../components/form/fields.tsx';
import { useDocumentTitle } from '../../components/useDocumentTitle.ts';
import { EmailField } from '../../forms/account-fields.tsx';
import { useContractForm } from '../../forms/use-contract-form.ts';
import '../../i18n/accounts-messages.ts';
import { AuthCard, AuthTitle } from './AuthCard.tsx';
import { CheckedLink, useLinkCheck } from './CheckedLink.tsx';
import { linkRequestErrorMessage } from './link-request.ts';
import { emailFormSchema, type EmailFormValues } from './schemas.ts';
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
    <AuthCard titleId="verify-email-title">{token ? <VerifyToken token={token} /> : <CheckInbox />}</AuthCard>
  );
}

function VerifyToken({ token }: { token: string }) {
  const { t } = useTranslation();
  const verification = useLinkCheck(['verify-email', token], () =>
    api.post(VERIFY_EMAIL_PATH, { token }, messageResponseSchema),
  );
  return (
    <CheckedLink
      check={verification}
      name="verify-email"
      titleId="verify-email-title"
      checkingTitle={t('verifyEmail.verifying')}
      success={(answer) => ({
        title: t('verifyEmail.successTitle'),
        // The server's words, in the visitor's language: they say whether a password is still to be
        // chosen (an address registered twice with different passwords keeps neither).
        message: answer.message || t('verifyEmail.successBody'),
        messageTestId: 'verify-email-success-message',
        next: (
          <Link to="/auth/login" className="btn btn--primary btn--block" data-testid="verify-email-sign-in">
            {t('verifyEmail.signIn')}
          </Link>
        ),
      })}
      failure={(error) => {
        const reachedServer = isApiError(error) && error.status > 0 && error.status !== 500;
        return {
          title: t('verifyEmail.failedTitle'),
          message:
            reachedServer || !isApiError(error) ? t('errors.verification_link_invalid') : error.message,
          messageTestId: 'verify-email-error',
          next: (
            <>
              <p className="text-muted">{t('verifyEmail.requestNew')}</p>
              <ResendForm />
              <p className="auth-card__footer">
                <Link to="/auth/login">{t('auth.backToSignIn')}</Link>
              </p>
            </>
          ),
        };
      }}
    />
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
      <AuthTitle id="verify-email-title">{t('verifyEmail.checkInbox')}</AuthTitle>
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
          {linkRequestErrorMessage(resend.error, t)}
        </FormAlert>
      )}
      {!email && <EmailField id="verify-email-email" label={t('verifyEmail.email')} {...field('email')} />}
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
