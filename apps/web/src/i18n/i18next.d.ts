// Types every `t('…')` key against the English texts, so a typo fails the type check.
import 'i18next';
import type { TranslationResources } from './i18n.ts';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: TranslationResources;
    returnNull: false;
  }
}
