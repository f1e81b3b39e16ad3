// Where the link mailed to a new address lands (/auth/confirm-email?token=): opening it is what
// changes the account's address. No sign-in needed (the link may be opened on a phone); a
// signed-in browser sees its new address at once.
import { confirmEmailChangeResponseSchema } from '@debesis/contract';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { api, isApiError } from '../../api/client.ts';
import { getSessionState, updateSessionUser, useSession } from '../../auth/session.ts';
import { useDocumentTitle } from '../../components/useDocumentTitle.ts';
import '../../i18n/accounts-messages.ts';
import { AuthCard, AuthOutcome } from '../auth/AuthCard.tsx';
import { CheckedLink, useLinkCheck } from '../auth/CheckedLink.tsx';
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
  const confirmation = useLinkCheck(['confirm-email-change', token], () =>
    api.post(CONFIRM_EMAIL_CHANGE_PATH, { token }, confirmEmailChangeResponseSchema),
  );
  const changedTo = confirmation.data?.email;
  useEffect(() => {
    const { user } = getSessionState();
    if (changedTo && user && user.email !== changedTo) updateSessionUser({ ...user, email: changedTo });
  }, [changedTo]);

  const signedIn = status === 'authenticated';
  const next = (
    <Link
      to={signedIn ? '/dashboard/settings' : '/auth/login'}
      className="btn btn--primary btn--block"
      data-testid="confirm-email-next"
    >
      {signedIn ? t('confirmEmail.toSettings') : t('confirmEmail.signIn')}
    </Link>
  );

  return (
    <CheckedLink
      check={confirmation}
      name="confirm-email"
      titleId="confirm-email-title"
      checkingTitle={t('confirmEmail.confirming')}
      success={(answer) => ({
        title: t('confirmEmail.successTitle'),
        message: answer.message,
        messageTestId: 'confirm-email-message',
        next,
      })}
      failure={(error) => ({
        title: t('confirmEmail.failedTitle'),
        message: isApiError(error) ? error.message : t('errors.email_change_link_invalid'),
        messageTestId: 'confirm-email-error',
        next,
      })}
    />
  );
}
