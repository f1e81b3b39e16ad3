// The one i18next instance of the app. Texts are bundled (two small objects), so it is ready
// synchronously before the first render. The contract's error texts join under `errors.` from
// error-messages.ts, and the account pages' texts from accounts-messages.ts, each loaded with the
// first page that needs them.
import type { errorMessages } from '@debesis/contract';
import type { AccountsMessages } from './accounts.en.ts';
import type { ActivityMessages } from './activity.en.ts';
import type { BillingMessages } from './billing.en.ts';
import type { OrdersMessages } from './orders.en.ts';
import type { PlanChangesMessages } from './plan-changes.en.ts';
import type { PlansMessages } from './plans.en.ts';
import type { PublicMessages } from './public.en.ts';
import type { WorkspaceMessages } from './workspace.en.ts';
import type { ServiceTabResources } from '../pages/services/messages/tab-messages.ts';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { en } from './en.ts';
import { lt } from './lt.ts';
import { readStoredLanguage } from './stored-language.ts';

export const resources = {
  en: { translation: en },
  lt: { translation: lt },
};

/**
 * What `t()` accepts: the app's texts, the contract's error catalogue (error-messages.ts) and the
 * account pages' texts (accounts-messages.ts), the plan picker's (plans-messages.ts), the payment
 * pages' (orders-messages.ts) and the plans and plan-change pages' (plan-changes-messages.ts); all
 * but the app's own join when a page that needs them loads.
 */
export type TranslationResources = {
  translation: typeof en & { errors: (typeof errorMessages)['en'] } & AccountsMessages &
    PlansMessages &
    OrdersMessages &
    PlanChangesMessages &
    BillingMessages;
  /** The service pages' texts (workspace-messages.ts): `useTranslation('workspace')`. */
  workspace: WorkspaceMessages;
  /** The activity page's and account summary's texts (activity-messages.ts): `useTranslation('activity')`. */
  activity: ActivityMessages;
  /** The public site's page texts (public-messages.ts): `useTranslation('public')`. */
  public: PublicMessages;
} & ServiceTabResources;

export const i18n = i18next.createInstance();

void i18n.use(initReactI18next).init({
  resources,
  lng: readStoredLanguage(),
  fallbackLng: 'en',
  supportedLngs: ['en', 'lt'],
  initAsync: false,
  // React escapes what it renders; escaping here too would show `&amp;` to the reader.
  interpolation: { escapeValue: false },
  returnNull: false,
});

function syncDocumentLanguage(language: string): void {
  document.documentElement.lang = language;
}

syncDocumentLanguage(i18n.language);
i18n.on('languageChanged', syncDocumentLanguage);
