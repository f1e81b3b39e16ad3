// /faq: short answers to what customers ask most, as native disclosure widgets.
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PublicPageHeader } from './parts.tsx';

const QUESTIONS = [
  'whatIs',
  'setupTime',
  'backups',
  'grow',
  'where',
  'devices',
  'payment',
  'expiry',
  'cancel',
] as const;

export function FaqPage() {
  const { t } = useTranslation('public');
  return (
    <div data-testid="faq-page">
      <PublicPageHeader title={t('faq.title')} lead={t('faq.lead')}>
        <div className="button-row">
          <Link to="/contact" className="btn btn--secondary">
            {t('common.contactUs')}
          </Link>
          <Link to="/docs" className="btn btn--ghost">
            {t('common.readDocs')}
          </Link>
        </div>
      </PublicPageHeader>
      <section className="section section--tight">
        <div className="container faq">
          {QUESTIONS.map((id) => (
            <details key={id} className="faq__item" data-testid={`faq-${id}`}>
              <summary className="faq__question">{t(`faq.items.${id}.q`)}</summary>
              <p className="faq__answer">{t(`faq.items.${id}.a`)}</p>
            </details>
          ))}
        </div>
      </section>
    </div>
  );
}
