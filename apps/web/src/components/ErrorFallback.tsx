// The generic failure screen of spec §8: 'Something went wrong' with Refresh Page and Try Again.
import { useTranslation } from 'react-i18next';

interface ErrorFallbackProps {
  onRetry: () => void;
}

export function ErrorFallback({ onRetry }: ErrorFallbackProps) {
  const { t } = useTranslation();
  return (
    <main className="error-screen" id="main" tabIndex={-1}>
      <div className="card error-screen__card" role="alert" data-testid="error-fallback">
        <h1 className="error-screen__title">{t('errorBoundary.title')}</h1>
        <p className="text-muted">{t('errorBoundary.body')}</p>
        <div className="button-row">
          <button type="button" className="btn btn--primary" onClick={() => window.location.reload()}>
            {t('errorBoundary.refresh')}
          </button>
          <button type="button" className="btn btn--secondary" onClick={onRetry}>
            {t('errorBoundary.retry')}
          </button>
        </div>
      </div>
    </main>
  );
}
