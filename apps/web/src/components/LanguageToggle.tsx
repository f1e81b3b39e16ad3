import { useTranslation } from 'react-i18next';
import { LANGUAGE_NAMES, LANGUAGE_SHORT_NAMES, LANGUAGES, useLanguage } from '../i18n/language.ts';
import { SegmentedChoice } from './SegmentedChoice.tsx';

export function LanguageToggle() {
  const { t } = useTranslation();
  const { language, setLanguage } = useLanguage();
  return (
    <SegmentedChoice
      options={LANGUAGES}
      value={language}
      onChange={setLanguage}
      label={t('language.label')}
      testId="language-toggle"
      optionTestId={(option) => `language-option-${option}`}
      optionLang={(option) => option}
      optionTitle={(option) => LANGUAGE_NAMES[option]}
      renderOption={(option) => (
        <>
          <span aria-hidden="true">{LANGUAGE_SHORT_NAMES[option]}</span>
          <span className="visually-hidden">{LANGUAGE_NAMES[option]}</span>
        </>
      )}
    />
  );
}
