import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

/** Sets the tab title to "<page> · Debesis"; `full` replaces the whole title (the home page). */
export function useDocumentTitle(page: string, { full = false }: { full?: boolean } = {}): void {
  const { t } = useTranslation();
  const title = full ? page : t('common.pageTitle', { page });
  useEffect(() => {
    document.title = title;
  }, [title]);
}
