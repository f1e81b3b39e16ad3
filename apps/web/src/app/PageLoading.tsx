import { useTranslation } from 'react-i18next';

/** Shown while the first page's code arrives; usually for a blink, so it stays quiet. */
export function PageLoading() {
  const { t } = useTranslation();
  return (
    <div className="page-loading" role="status">
      <span className="spinner" aria-hidden="true" />
      <span className="visually-hidden">{t('common.loading')}</span>
    </div>
  );
}
