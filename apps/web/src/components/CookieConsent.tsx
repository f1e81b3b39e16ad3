// The cookie-consent banner (spec §1): "necessary only" or "all". Shown until the visitor
// chooses, and again when they open "Cookie settings" in the footer. It sits in the page's flow
// above the header rather than over the content, so it never hides what the visitor came for, and
// it is one short line and two buttons, so it takes little of a phone's first screen (the privacy
// policy says the rest).
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { saveConsent, useConsent } from '../consent/consent.ts';
import './cookie-consent.css';

/** The two choices, "necessary only" first. */
const CHOICES = [
  { option: 'necessary', tone: 'secondary' },
  { option: 'all', tone: 'primary' },
] as const;

export function CookieConsent() {
  const { t } = useTranslation();
  const { choice, settingsOpen } = useConsent();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const visible = choice === null || settingsOpen;

  useEffect(() => {
    // Opened from the footer: take the reader to it, as they asked to see it.
    if (settingsOpen) headingRef.current?.focus();
  }, [settingsOpen]);

  if (!visible) return null;
  return (
    <section className="cookie-consent" aria-labelledby="cookie-consent-title" data-testid="cookie-consent">
      <div className="container cookie-consent__inner">
        <div className="cookie-consent__text">
          <h2 id="cookie-consent-title" className="cookie-consent__title" tabIndex={-1} ref={headingRef}>
            {t('consent.title')}
          </h2>{' '}
          <p>
            {t('consent.body')} <Link to="/privacy">{t('consent.privacy')}</Link>
          </p>
          {choice && (
            <p className="cookie-consent__current" data-testid="cookie-consent-current">
              {choice === 'all' ? t('consent.currentAll') : t('consent.currentNecessary')}
            </p>
          )}
        </div>
        <div className="button-row cookie-consent__actions">
          {CHOICES.map(({ option, tone }) => (
            <button
              key={option}
              type="button"
              className={`btn btn--${tone}`}
              aria-pressed={choice === option}
              data-testid={`consent-${option}`}
              onClick={() => saveConsent(option)}
            >
              {t(`consent.${option}`)}
            </button>
          ))}
        </div>
      </div>
    </section>
  );
}
