// Where the link mailed to a new address lands (/auth/confirm-email?token=): opening it is what
// changes the account's address. No sign-in needed (the link may be opened on a phone); a
// signed-in browser sees its new address at once.
import { confirmEmailChangeResponseSchema } from '@debesis/contract';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { api, isApiError } from '../../api/client.ts';
import { getSessionState, updateSessionUser, useSession } from '../../auth/session.ts';
import { FormAlert } from '../../components/form/fields.tsx';
import { useDocumentTitle } from '../../components/useDocumentTitle.ts';
import '../../i18n/accounts-messages.ts';
import { CONFIRM_EMAIL_CHANGE_PATH } from './account-forms.ts';
import '../auth/auth.css';

export function ConfirmEmailPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('confirmEmail.title'));
  const [params] = useSearchParams();
  const token = params.get('token');
  return (
    <section className="card auth-card" aria-labelledby="confirm-email-title">
      {token ? (
        <ConfirmToken token={token} />
      ) : (
        <>
          <h1 id="confirm-email-title" className="auth-card__title">
            {t('confirmEmail.title')}
          </h1>
          <FormAlert tone="error" testId="confirm-email-missing">
            {t('confirmEmail.missingToken')}
          </FormAlert>
        </>
      )}
    </section>
  );
}

function ConfirmToken({ token }: { token: string }) {
  const { t } = useTranslation();
  const { status } = useSession();
  // A query rather than an effect: one request per token, however often the page renders.
  const confirmation = useQuery({
    queryKey: ['confirm-email-change', token],
    queryFn: () => api.post(CONFIRM_EMAIL_CHANGE_PATH, { token }, confirmEmailChangeResponseSchema),
    retry: false,
    staleTime: Infinity,
    gcTime: Infinity,
  });
  const changedTo = confirmation.data?.email;
  useEffect(() => {
    const { user } = getSessionState();
    if (changedTo && user && user.email !== changedTo) updateSessionUser({ ...user, email: changedTo });
  }, [changedTo]);

  const next =
    status === 'authenticated' ? (
      <Link to="/dashboard/settings" className="btn btn--primary btn--block" data-testid="confirm-email-next">
        {t('confirmEmail.toSettings')}
      </Link>
    ) : (
      <Link to="/auth/login" className="btn btn--primary btn--block" data-testid="confirm-email-next">
        {t('confirmEmail.signIn')}
      </Link>
    );

  if (confirmation.isPending) {
    return (
      <div className="auth-status" role="status" data-testid="confirm-email-pending">
        <span className="spinner" aria-hidden="true" />
        <h1 id="confirm-email-title" className="auth-card__title">
          {t('confirmEmail.confirming')}
        </h1>
      </div>
    );
  }
  if (confirmation.isSuccess) {
    return (
      <div data-testid="confirm-email-success">
        <h1 id="confirm-email-title" className="auth-card__title">
          {t('confirmEmail.successTitle')}
        </h1>
        <FormAlert tone="success" testId="confirm-email-message">
          {confirmation.data.message}
        </FormAlert>
        {next}
      </div>
    );
  }
  const { error } = confirmation;
  return (
    <div data-testid="confirm-email-failed">
      <h1 id="confirm-email-title" className="auth-card__title">
        {t('confirmEmail.failedTitle')}
      </h1>
      <FormAlert tone="error" testId="confirm-email-error">
        {isApiError(error) ? error.message : t('errors.email_change_link_invalid')}
      </FormAlert>
      {next}
    </div>
  );
}
