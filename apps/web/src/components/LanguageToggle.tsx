import { useTranslation } from 'react-i18next';
import { LANGUAGE_NAMES, LANGUAGE_SHORT_NAMES, LANGUAGES, useLanguage } from '../i18n/language.ts';

export function LanguageToggle() {
  const { t } = useTranslation();
  const { language, setLanguage } = useLanguage();
  return (
    <div className="segmented" role="group" aria-label={t('language.label')} data-testid="language-toggle">
      {LANGUAGES.map((option) => (
        <button
          key={option}
          type="button"
          lang={option}
          className="segmented__option"
          aria-pressed={language === option}
          title={LANGUAGE_NAMES[option]}
          data-testid={`language-option-${option}`}
          onClick={() => setLanguage(option)}
        >
          <span aria-hidden="true">{LANGUAGE_SHORT_NAMES[option]}</span>
          <span className="visually-hidden">{LANGUAGE_NAMES[option]}</span>
        </button>
      ))}
    </div>
  );
}
