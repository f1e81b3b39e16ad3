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
import { useDocumentTitle } from '../../components/useDocumentTitle.ts';
import '../../i18n/accounts-messages.ts';
import { AuthCard, AuthOutcome, AuthPending } from '../auth/AuthCard.tsx';
import { CONFIRM_EMAIL_CHANGE_PATH } from './account-forms.ts';

export function ConfirmEmailPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('confirmEmail.title'));
  const [params] = useSearchParams();
  const token = params.get('token');
  return (
    <AuthCard titleId="confirm-email-title">
      {token ? (
        <ConfirmToken token={token} />
      ) : (
        <AuthOutcome
          titleId="confirm-email-title"
          title={t('confirmEmail.title')}
          tone="error"
          message={t('confirmEmail.missingToken')}
          messageTestId="confirm-email-missing"
        />
      )}
    </AuthCard>
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
      <AuthPending
        titleId="confirm-email-title"
        title={t('confirmEmail.confirming')}
        testId="confirm-email-pending"
      />
    );
  }
  if (confirmation.isSuccess) {
    return (
      <AuthOutcome
        titleId="confirm-email-title"
        title={t('confirmEmail.successTitle')}
        tone="success"
        message={confirmation.data.message}
        messageTestId="confirm-email-message"
        testId="confirm-email-success"
      >
        {next}
      </AuthOutcome>
    );
  }
  const { error } = confirmation;
  return (
    <AuthOutcome
      titleId="confirm-email-title"
      title={t('confirmEmail.failedTitle')}
      tone="error"
      message={isApiError(error) ? error.message : t('errors.email_change_link_invalid')}
      messageTestId="confirm-email-error"
      testId="confirm-email-failed"
    >
      {next}
    </AuthOutcome>
  );
}
