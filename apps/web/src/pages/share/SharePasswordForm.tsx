// The password of a protected link. The right one sets the link's grant cookie; the page then
// asks for the content again. Too many tries are refused for a while (429 with its wait): the
// form says how long and takes no password until then.
import { errorText, publicShareUnlockRequestSchema, type Language } from '@debesis/contract';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { unlockShare, type ShareView } from './share-api.ts';

/** A wait in seconds as people say it, in whole minutes from a minute on ("2 minutes"). */
function formatWait(seconds: number, language: Language): string {
  const [value, unit] =
    seconds < 60 ? [Math.max(1, Math.ceil(seconds)), 'second'] : [Math.ceil(seconds / 60), 'minute'];
  return new Intl.NumberFormat(language, { style: 'unit', unit, unitDisplay: 'long' }).format(value);
}

/** What went wrong, kept as a reason rather than a text so the language toggle applies to it. */
type FormError =
  | {
      kind: 'code';
      code: 'required' | 'password_too_long' | 'share_link_wrong_password' | 'too_many_attempts';
    }
  | { kind: 'wait'; seconds: number }
  | { kind: 'cookies' }
  | { kind: 'network' };

export function SharePasswordForm({
  token,
  language,
  onUnlocked,
}: {
  token: string;
  language: Language;
  /** Asks for the link again; resolves with what it shows now. */
  onUnlocked: () => Promise<ShareView | undefined>;
}) {
  const { t } = useTranslation('sharePage');
  const { t: tApp } = useTranslation();
  const inputId = useId();
  const errorId = useId();
  const [password, setPassword] = useState('');
  const [visible, setVisible] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<FormError | null>(null);
  /** Seconds the API asked to wait before another try (429); null when a try may be sent. */
  const [waiting, setWaiting] = useState<number | null>(null);

  useEffect(() => {
    if (waiting === null) return;
    const timer = setTimeout(() => setWaiting(null), waiting * 1000);
    return () => clearTimeout(timer);
  }, [waiting]);

  const errorMessage = (shown: FormError): string => {
    switch (shown.kind) {
      case 'code':
        return errorText(language, shown.code);
      case 'wait':
        return t('password.wait', { wait: formatWait(shown.seconds, language) });
      case 'cookies':
        return t('password.cookies');
      case 'network':
        return tApp('clientErrors.network_error');
    }
  };

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const request = publicShareUnlockRequestSchema.safeParse({ password });
    if (!request.success) {
      const code = request.error.issues[0]?.message;
      setError({ kind: 'code', code: code === 'password_too_long' ? code : 'required' });
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const result = await unlockShare(token, request.data.password, language);
      switch (result.state) {
        case 'unlocked':
        case 'other': {
          // `other`: the link changed meanwhile (revoked, expired); asking again shows that page.
          // Still the password after a right one: the browser did not keep the grant's cookie.
          const after = await onUnlocked();
          if (result.state === 'unlocked' && after?.state === 'password') setError({ kind: 'cookies' });
          break;
        }
        case 'wrong_password':
          setError({ kind: 'code', code: 'share_link_wrong_password' });
          break;
        case 'too_many_attempts':
          if (result.retryAfter === null) {
            setError({ kind: 'code', code: 'too_many_attempts' });
          } else {
            setError({ kind: 'wait', seconds: result.retryAfter });
            setWaiting(result.retryAfter);
          }
          break;
      }
    } catch {
      setError({ kind: 'network' });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="form share-page__password" noValidate onSubmit={(event) => void submit(event)}>
      <h1>{t('password.title')}</h1>
      <p>{t('password.lead')}</p>
      <div className="field">
        <label htmlFor={inputId} className="field__label">
          {t('password.label')}
        </label>
        <div className="share-page__password-row">
          <input
            id={inputId}
            className="input"
            type={visible ? 'text' : 'password'}
            autoComplete="off"
            // The form is all the page has: the visitor came to type here.
            autoFocus
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            aria-invalid={error !== null}
            aria-describedby={error ? errorId : undefined}
            data-testid="share-password-input"
          />
          <button
            type="button"
            className="btn btn--secondary"
            aria-pressed={visible}
            aria-controls={inputId}
            onClick={() => setVisible((now) => !now)}
            data-testid="share-password-toggle"
          >
            {visible ? t('password.hide') : t('password.show')}
          </button>
        </div>
        {error && (
          <p id={errorId} className="field__error" role="alert" data-testid="share-password-error">
            {errorMessage(error)}
          </p>
        )}
      </div>
      <button
        type="submit"
        className="btn btn--primary btn--lg"
        disabled={busy || waiting !== null}
        data-testid="share-password-submit"
      >
        {busy ? t('password.checking') : t('password.submit')}
      </button>
    </form>
  );
}
