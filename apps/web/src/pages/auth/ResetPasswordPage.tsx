// Choosing a new password from the emailed link (spec §2, §7, §8). The answer carries tokens like
// a sign-in; they are kept and the visitor lands signed in, as after any sign-in.
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { z } from 'zod';
import { api, isApiError } from '../../api/client.ts';
import { afterLogin } from '../../auth/after-login.ts';
import { commonSignInError, signInWithAnswer } from '../../auth/login.ts';
import { FormAlert } from '../../components/form/fields.tsx';
import { useDocumentTitle } from '../../components/useDocumentTitle.ts';
import { NewPasswordFields } from '../../forms/account-fields.tsx';
import { useContractForm } from '../../forms/use-contract-form.ts';
import '../../i18n/accounts-messages.ts';
import { AuthCard, AuthForm } from './AuthCard.tsx';
import { newPasswordFormSchema, type NewPasswordFormValues } from './schemas.ts';

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
      <AuthCard titleId="reset-title" title={t('resetPassword.title')} testId="reset-password-missing-token">
        <FormAlert tone="error">{t('resetPassword.missingToken')}</FormAlert>
        <Link to="/auth/forgot-password" className="btn btn--primary btn--block">
          {t('resetPassword.requestNew')}
        </Link>
      </AuthCard>
    );
  }

  const linkInvalid = isApiError(reset.error) && reset.error.detail === 'reset_link_invalid';
  return (
    <AuthCard titleId="reset-title" title={t('resetPassword.title')} lead={t('resetPassword.lead')}>
      <AuthForm
        name="reset-password"
        onSubmit={(event) => void handleSubmit((values) => reset.mutate(values))(event)}
        change={reset}
        failure={(error) => (
          <>
            {errorMessage(error)}{' '}
            {linkInvalid && (
              <Link to="/auth/forgot-password" data-testid="reset-password-request-new">
                {t('resetPassword.requestNew')}
              </Link>
            )}
          </>
        )}
        submitLabel={t('resetPassword.submit')}
        busyLabel={t('resetPassword.submitting')}
      >
        <NewPasswordFields
          ids={{ password: 'reset-password-password', confirm: 'reset-password-confirm' }}
          labels={{
            password: t('resetPassword.password'),
            hint: t('register.passwordHint'),
            confirm: t('resetPassword.confirmPassword'),
          }}
          password={field('password')}
          confirm={field('confirmPassword')}
        />
      </AuthForm>
    </AuthCard>
  );
}
