// /faq: short answers to what customers ask most, as native disclosure widgets.
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { isShipped, shippedList, shippedOnly, type Needs } from '../../lib/features.ts';
import { PublicPageHeader } from './parts.tsx';

type Question =
  'whatIs' | 'setupTime' | 'backups' | 'grow' | 'where' | 'devices' | 'payment' | 'expiry' | 'cancel';

/** A question about a feature is asked once the feature has shipped (SHIPPED_FEATURES). */
const QUESTIONS: { id: Question; needs?: Needs }[] = [
  { id: 'whatIs' },
  { id: 'setupTime' },
  { id: 'backups', needs: 'backups' },
  { id: 'grow' },
  { id: 'where' },
  { id: 'devices' },
  { id: 'payment' },
  { id: 'expiry' },
  { id: 'cancel' },
];

export function FaqPage() {
  const { t, i18n } = useTranslation('public');
  /** An answer, naming only the features that have shipped. */
  const answer = (id: Question): string => {
    if (id === 'whatIs') {
      const services = shippedList(
        (['samba', 'nfs', 'ftp', 'vpn'] as const).map((feature) => ({
          needs: feature,
          text: t(`faq.items.whatIs.serviceParts.${feature}`),
        })),
        i18n.language,
      );
      const backups = isShipped('backups') ? ` ${t('faq.items.whatIs.aBackups')}` : '';
      return `${t('faq.items.whatIs.a', { services })}${backups}`;
    }
    if (id === 'devices' && isShipped(['vpn', 'ftp']))
      return `${t('faq.items.devices.a')} ${t('faq.items.devices.aMobile')}`;
    return t(`faq.items.${id}.a`);
  };
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
          {shippedOnly(QUESTIONS).map(({ id }) => (
            <details key={id} className="faq__item" data-testid={`faq-${id}`}>
              <summary className="faq__question">{t(`faq.items.${id}.q`)}</summary>
              <p className="faq__answer">{answer(id)}</p>
            </details>
          ))}
        </div>
      </section>
    </div>
  );
}
