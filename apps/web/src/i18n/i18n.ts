// The one i18next instance of the app. The English texts are bundled, so a visitor in English (the
// default) has them before the first render; the Lithuanian ones (lt.ts) download only for a
// visitor in Lithuanian: main.tsx renders once `i18nReady` (the stored language's texts) has
// settled, and `i18n.changeLanguage` brings a language's texts before it switches to it. Pages
// add their own texts with `addResourceBundle` as before. The contract's error texts join under `errors.` from
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
import type { ServiceTabResources } from '../pages/services/service-tabs.ts';
import type { SharePageMessages } from '../pages/share/share-page.en.ts';
import type { LinuxPortalMessages } from '../pages/linux-portal/linux-portal.en.ts';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { en, type Messages } from './en.ts';
import { readStoredLanguage } from './stored-language.ts';

// A copy: i18next adds the pages' texts into the bundle it is given, and the module's own object
// stays the English texts alone (i18n.test.ts compares it with lt.ts).
export const resources = {
  en: { translation: structuredClone(en) },
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
  /** The public share-link page's texts, loaded with it (app/router.tsx): `useTranslation('sharePage')`. */
  sharePage: SharePageMessages;
  /** The Linux-user portal's texts, loaded with it (app/router.tsx): `useTranslation('linuxPortal')`. */
  linuxPortal: LinuxPortalMessages;
  /** The service page's tab labels, by tab id, from the tabs' folders (pages/services/tab-labels.ts). */
  serviceTabs: Readonly<Record<string, string>>;
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

/** The app's texts of the languages not bundled, by language. */
const textLoaders: Record<string, () => Promise<Messages>> = {
  lt: async () => (await import('./lt.ts')).lt,
};
const textsLoading = new Map<string, Promise<void>>();

/** Adds `language`'s app texts once (English is bundled); a failed download is tried again next time. */
export function loadTexts(language: string): Promise<void> {
  const load = textLoaders[language];
  if (!load) return Promise.resolve();
  let loading = textsLoading.get(language);
  if (!loading) {
    loading = load().then(
      (texts) => {
        // Deep, not overwriting: a page's texts (addResourceBundle) may have come first.
        i18n.addResourceBundle(language, 'translation', texts, true, false);
      },
      (error: unknown) => {
        textsLoading.delete(language);
        throw error;
      },
    );
    textsLoading.set(language, loading);
  }
  return loading;
}

// Every switch (the language toggle, the server's choice, a test) brings the texts first, so the
// page never shows the new language half in English.
const switchLanguage = i18n.changeLanguage.bind(i18n);
i18n.changeLanguage = async (language, callback) => {
  if (language) await loadTexts(language).catch(() => undefined);
  return switchLanguage(language, callback);
};

/**
 * Settles once the stored language's texts are in (at once for English); the app renders then.
 * i18next decided `resolvedLanguage` at init, before those texts existed (it fell back to English),
 * and decides it again only on a switch: switching to the same language makes it the stored one.
 */
export const i18nReady: Promise<void> = loadTexts(i18n.language)
  .then(async () => {
    if (i18n.resolvedLanguage !== i18n.language) await switchLanguage(i18n.language);
  })
  .catch(() => undefined);

function syncDocumentLanguage(language: string): void {
  // Not in the build's prerender (prerender.tsx), which has no document.
  if (typeof document !== 'undefined') document.documentElement.lang = language;
}

syncDocumentLanguage(i18n.language);
i18n.on('languageChanged', syncDocumentLanguage);
