// Owner sign-in. The guard leaves `from` in router state; after signing in we go back there.
import { useMutation } from '@tanstack/react-query';
import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { z } from 'zod';
import { login, loginErrorMessage } from '../auth/login.ts';
import { returnPathFrom } from '../auth/session.ts';
import { TextField } from '../components/TextField.tsx';
import { useDocumentTitle } from '../components/useDocumentTitle.ts';
import '../i18n/error-messages.ts';

const DEFAULT_RETURN_PATH = '/dashboard/services';

const emailSchema = z.email();

type FieldErrors = Partial<Record<'email' | 'password', string>>;

export function LoginPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('login.title'));
  const navigate = useNavigate();
  const location = useLocation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);

  const signIn = useMutation({
    mutationFn: login,
    onSuccess: () => navigate(returnPathFrom(location.state) ?? DEFAULT_RETURN_PATH, { replace: true }),
  });

  function validate(): FieldErrors {
    const errors: FieldErrors = {};
    // Spec §5 names one message for an email that is missing or malformed.
    if (!emailSchema.safeParse(email.trim()).success) errors.email = t('errors.invalid_email');
    if (password.length === 0) errors.password = t('errors.required');
    return errors;
  }

  // Errors appear after the first attempt and then follow the typing.
  const fieldErrors = submitted ? validate() : {};

  function onSubmit(event: FormEvent<HTMLFormElement>): void {
    event.preventDefault();
    setSubmitted(true);
    const errors = validate();
    if (errors.email) return emailRef.current?.focus();
    if (errors.password) return passwordRef.current?.focus();
    signIn.mutate({ email: email.trim(), password });
  }

  return (
    <section className="card auth-card" aria-labelledby="login-title">
      <h1 id="login-title" className="auth-card__title">
        {t('login.title')}
      </h1>
      <p className="text-muted">{t('login.lead')}</p>

      {signIn.isError && (
        <div className="alert alert--error" role="alert" data-testid="login-error">
          {loginErrorMessage(signIn.error, t)}
        </div>
      )}

      <form className="form" noValidate onSubmit={onSubmit} data-testid="login-form">
        <TextField
          id="login-email"
          name="email"
          type="email"
          label={t('login.email')}
          autoComplete="username"
          inputMode="email"
          required
          value={email}
          onValueChange={setEmail}
          error={fieldErrors.email}
          inputRef={emailRef}
          data-testid="login-email"
        />
        <TextField
          id="login-password"
          name="password"
          type="password"
          label={t('login.password')}
          autoComplete="current-password"
          required
          value={password}
          onValueChange={setPassword}
          error={fieldErrors.password}
          inputRef={passwordRef}
          data-testid="login-password"
        />
        <p className="form__aside">
          <Link to="/auth/forgot-password" data-testid="login-forgot-password">
            {t('login.forgotPassword')}
          </Link>
        </p>
        <button
          type="submit"
          className="btn btn--primary btn--block"
          disabled={signIn.isPending}
          data-testid="login-submit"
        >
          {signIn.isPending ? t('login.submitting') : t('login.submit')}
        </button>
      </form>

      <p className="auth-card__footer">
        {t('login.noAccount')}{' '}
        <Link to="/auth/register" data-testid="login-register">
          {t('login.register')}
        </Link>
      </p>
    </section>
  );
}
