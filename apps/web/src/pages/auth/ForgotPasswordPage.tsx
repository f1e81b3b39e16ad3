// Forgotten password (spec §2, §7): asks for a reset link. The answer is the same whether or not
// an account exists, so the page never tells which addresses are registered.
import { messageResponseSchema } from '@debesis/contract';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api } from '../../api/client.ts';
import { FormAlert } from '../../components/form/fields.tsx';
import { useDocumentTitle } from '../../components/useDocumentTitle.ts';
import { EmailField } from '../../forms/account-fields.tsx';
import { useContractForm } from '../../forms/use-contract-form.ts';
import '../../i18n/accounts-messages.ts';
import { AuthCard, AuthForm } from './AuthCard.tsx';
import { linkRequestErrorMessage } from './link-request.ts';
import { emailFormSchema, type EmailFormValues } from './schemas.ts';

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
      <AuthCard titleId="forgot-title" title={t('forgotPassword.sentTitle')} testId="forgot-password-sent">
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
      </AuthCard>
    );
  }

  return (
    <AuthCard titleId="forgot-title" title={t('forgotPassword.title')} lead={t('forgotPassword.lead')}>
      <AuthForm
        name="forgot-password"
        onSubmit={(event) => void handleSubmit((values) => request.mutate(values))(event)}
        change={request}
        failure={(error) => linkRequestErrorMessage(error, t)}
        submitLabel={t('forgotPassword.submit')}
        busyLabel={t('forgotPassword.submitting')}
      >
        <EmailField id="forgot-password-email" label={t('forgotPassword.email')} {...field('email')} />
      </AuthForm>
      <p className="auth-card__footer">
        <Link to="/auth/login">{t('auth.backToSignIn')}</Link>
      </p>
    </AuthCard>
  );
}
