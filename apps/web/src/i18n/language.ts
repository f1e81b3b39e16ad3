// Reading and changing the interface language. The API client reads `currentLanguage()` for the
// Accept-Language header, so the server answers in the language on screen.
import { LANGUAGES, type Language } from '@debesis/contract';
import { useTranslation } from 'react-i18next';
import { i18n } from './i18n.ts';
import { isLanguage, storeLanguage } from './stored-language.ts';

export { LANGUAGES, type Language };

/** Each language names itself, in every interface language: a reader finds their own that way. */
export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', lt: 'Lietuvių' };
export const LANGUAGE_SHORT_NAMES: Record<Language, string> = { en: 'EN', lt: 'LT' };

export function currentLanguage(): Language {
  const language = i18n.resolvedLanguage ?? i18n.language;
  return isLanguage(language) ? language : 'en';
}

/**
 * Who changed the language, as for the theme: `user` (the header toggle) is synchronised to the
 * server while signed in; `server`, `storage` (another tab) and `settings` (the settings page,
 * which saves itself) are not.
 */
export type LanguageChangeSource = 'user' | 'server' | 'storage' | 'settings';
type LanguageListener = (language: Language, source: LanguageChangeSource) => void;

const choiceListeners = new Set<LanguageListener>();

/** Called whenever the choice changes; returns the unsubscribe function. */
export function onLanguageChoiceChange(listener: LanguageListener): () => void {
  choiceListeners.add(listener);
  return () => choiceListeners.delete(listener);
}

export async function changeLanguage(
  language: Language,
  source: LanguageChangeSource = 'user',
): Promise<void> {
  const changed = language !== currentLanguage();
  if (source !== 'storage') storeLanguage(language);
  await i18n.changeLanguage(language);
  if (changed) choiceListeners.forEach((listener) => listener(language, source));
}

export function useLanguage(): { language: Language; setLanguage: (language: Language) => void } {
  // Subscribes the component to language changes.
  useTranslation();
  return {
    language: currentLanguage(),
    setLanguage: (language) => void changeLanguage(language),
  };
}
