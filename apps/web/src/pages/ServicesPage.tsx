// The services list. The foundation knows no services yet, so it shows the honest empty state;
// the services issue replaces it with GET /api/v1/services/overview.
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ServerIcon } from '../components/icons.tsx';
import { useDocumentTitle } from '../components/useDocumentTitle.ts';

export function ServicesPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('services.title'));
  return (
    <>
      <header className="page-header">
        <h1>{t('services.title')}</h1>
        <p className="text-muted">{t('services.lead')}</p>
      </header>
      <div className="card empty-state" data-testid="services-empty">
        <span className="empty-state__icon">
          <ServerIcon width={28} height={28} />
        </span>
        <h2 className="empty-state__title">{t('services.emptyTitle')}</h2>
        <p className="text-muted">{t('services.emptyBody')}</p>
        <Link to="/auth/plans" className="btn btn--primary">
          {t('services.emptyCta')}
        </Link>
      </div>
    </>
  );
}
