// Sign-in (spec §2): the owner signs in with email and password; a subuser with username,
// service ID, password and, when turned on, a 2FA code. The guard leaves `from` in router state;
// after signing in, afterLogin decides where to go (the pending plan, `from`, or services).
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { isApiError } from '../../api/client.ts';
import { afterLogin, DEFAULT_AFTER_LOGIN_PATH } from '../../auth/after-login.ts';
import { login, loginErrorMessage } from '../../auth/login.ts';
import { returnPathFrom } from '../../auth/session.ts';
import { SUBUSER_AREA_PATH, subuserLogin, subuserLoginErrorMessage } from '../../auth/subuser-login.ts';
import { CheckboxField, FormAlert, InputField } from '../../components/form/fields.tsx';
import { useDocumentTitle } from '../../components/useDocumentTitle.ts';
import { PasswordField } from '../../forms/account-fields.tsx';
import { useContractForm } from '../../forms/use-contract-form.ts';
import { isShipped } from '../../lib/features.ts';
import '../../i18n/accounts-messages.ts';
import { AuthCard, AuthForm } from './AuthCard.tsx';
import { OAuthButtons } from './OAuthButtons.tsx';
import { loginFormSchema, subuserLoginFormSchema } from './schemas.ts';
import './auth.css';

/** Router state other pages leave for the login page. */
export interface LoginPageState {
  from?: string;
  /** Prefills the email field. */
  email?: string;
  /** A notice to show above the form. */
  notice?: 'email_registered' | 'subuser_session_ended';
}

function readState(state: unknown): LoginPageState {
  if (typeof state !== 'object' || state === null) return {};
  const { email, notice } = state as LoginPageState;
  return {
    email: typeof email === 'string' ? email : undefined,
    notice: notice === 'email_registered' || notice === 'subuser_session_ended' ? notice : undefined,
  };
}

type Mode = 'owner' | 'subuser';

export function LoginPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('login.title'));
  const location = useLocation();
  const { notice } = readState(location.state);
  const [mode, setMode] = useState<Mode>(notice === 'subuser_session_ended' ? 'subuser' : 'owner');
  const from = returnPathFrom(location.state);

  return (
    <AuthCard
      titleId="login-title"
      title={t('login.title')}
      lead={mode === 'owner' ? t('login.lead') : t('login.subuser.lead')}
    >
      {notice && (
        <FormAlert tone="info" testId="login-notice">
          {notice === 'subuser_session_ended' ? t('login.subuser.sessionEnded') : t(`errors.${notice}`)}
        </FormAlert>
      )}

      {/* Subusers sign in here once they exist (SHIPPED_FEATURES); until then only owners do. */}
      {isShipped('subusers') && (
        <div className="segmented segmented--block auth-mode" role="group" aria-label={t('login.modeLabel')}>
          {(['owner', 'subuser'] as const).map((option) => (
            <button
              key={option}
              type="button"
              className="segmented__option"
              aria-pressed={mode === option}
              data-testid={option === 'owner' ? 'login-owner-toggle' : 'login-subuser-toggle'}
              onClick={() => setMode(option)}
            >
              {option === 'owner' ? t('login.modeOwner') : t('login.modeSubuser')}
            </button>
          ))}
        </div>
      )}

      {mode === 'owner' ? <OwnerLoginForm /> : <SubuserLoginForm />}

      {mode === 'owner' && <OAuthButtons redirect={from ?? DEFAULT_AFTER_LOGIN_PATH} />}

      <p className="auth-card__footer">
        {t('login.noAccount')}{' '}
        <Link to="/auth/register" data-testid="login-register">
          {t('login.register')}
        </Link>
      </p>
    </AuthCard>
  );
}

function OwnerLoginForm() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const { email: rememberedEmail } = readState(location.state);
  const { field, handleSubmit } = useContractForm({
    schema: loginFormSchema,
    defaultValues: { email: rememberedEmail ?? '', password: '' },
  });

  const signIn = useMutation({
    mutationFn: login,
    onSuccess: () =>
      afterLogin({ from: returnPathFrom(location.state), pathname: location.pathname, navigate }),
    onError: (error, { email }) => {
      // Spec §8: an unverified address goes to verify-email, carrying a message and the email.
      if (isApiError(error) && error.detail === 'email_not_verified') {
        void navigate('/auth/verify-email', { state: { email, message: 'verify_before_sign_in' } });
      }
    },
  });

  return (
    <AuthForm
      name="login"
      onSubmit={(event) =>
        void handleSubmit((values) =>
          signIn.mutate({ email: values.email.trim(), password: values.password }),
        )(event)
      }
      change={signIn}
      failure={(error) => loginErrorMessage(error, t)}
      submitLabel={t('login.submit')}
      busyLabel={t('login.submitting')}
    >
      {/* "username", not "email": password managers save the pair under the sign-in name. */}
      <InputField
        id="login-email"
        type="email"
        label={t('login.email')}
        autoComplete="username"
        inputMode="email"
        required
        data-testid="login-email"
        {...field('email')}
      />
      <PasswordField id="login-password" label={t('login.password')} current {...field('password')} />
      <p className="form__aside">
        <Link to="/auth/forgot-password" data-testid="login-forgot-password">
          {t('login.forgotPassword')}
        </Link>
      </p>
    </AuthForm>
  );
}

function SubuserLoginForm() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { field, handleSubmit, setFocus } = useContractForm({
    schema: subuserLoginFormSchema,
    defaultValues: { username: '', serviceId: '', password: '', twoFactorCode: '', rememberMe: false },
  });
  const signIn = useMutation({
    mutationFn: subuserLogin,
    onSuccess: () => void navigate(SUBUSER_AREA_PATH, { replace: true }),
    // The password was right and the code is still to come: the fields stay, the code is next.
    onError: (error) => {
      if (isApiError(error) && error.detail === 'two_factor_required') setFocus('twoFactorCode');
    },
  });

  return (
    <AuthForm
      name="subuser-login"
      onSubmit={(event) =>
        void handleSubmit((values) =>
          signIn.mutate({
            username: values.username.trim(),
            serviceId: values.serviceId.trim(),
            password: values.password,
            twoFactorCode: values.twoFactorCode.trim() || undefined,
            rememberMe: values.rememberMe,
          }),
        )(event)
      }
      change={signIn}
      failure={(error) => subuserLoginErrorMessage(error, t)}
      submitLabel={t('login.subuser.submit')}
      busyLabel={t('login.submitting')}
    >
      <InputField
        id="subuser-username"
        label={t('login.subuser.username')}
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
        required
        data-testid="subuser-username"
        {...field('username')}
      />
      <InputField
        id="subuser-service-id"
        label={t('login.subuser.serviceId')}
        hint={t('login.subuser.serviceIdHint')}
        autoComplete="off"
        spellCheck={false}
        required
        data-testid="subuser-service-id"
        {...field('serviceId')}
      />
      <PasswordField
        id="subuser-password"
        label={t('login.subuser.password')}
        current
        {...field('password')}
      />
      <InputField
        id="subuser-two-factor"
        label={t('login.subuser.twoFactorCode')}
        hint={t('login.subuser.twoFactorHint')}
        optional
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={11}
        data-testid="subuser-two-factor"
        {...field('twoFactorCode')}
      />
      <CheckboxField
        id="subuser-remember"
        label={t('login.subuser.rememberMe')}
        data-testid="subuser-remember"
        {...field('rememberMe')}
      />
    </AuthForm>
  );
}
