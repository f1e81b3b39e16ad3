// The tabs' labels, in i18n: each tab's folder names its label in both languages (tab.ts), and
// they join the `serviceTabs` namespace under the tab's id, so the tab bar and the page title read
// them with `t()` like any other text and switch language with the rest of the page.
import { LANGUAGES } from '@debesis/contract';
import { useTranslation } from 'react-i18next';
import { i18n } from '../../i18n/i18n.ts';
import type { ServiceTab } from './define-service-tab.ts';

export const TAB_LABELS_NAMESPACE = 'serviceTabs';

export function addTabLabels(tabs: readonly ServiceTab[]): void {
  for (const language of LANGUAGES) {
    const labels = Object.fromEntries(tabs.map((tab) => [tab.id, tab.label[language]]));
    i18n.addResourceBundle(language, TAB_LABELS_NAMESPACE, labels, true, false);
  }
}

/** A tab's label in the page's language. */
export function useTabLabel(): (tab: ServiceTab) => string {
  const { t } = useTranslation(TAB_LABELS_NAMESPACE);
  return (tab) => t(tab.id);
}
