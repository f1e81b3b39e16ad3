// /about: the company behind Debesis, a data-center operator since 2007 (spec §1).
import { useTranslation } from 'react-i18next';
import { PublicCallToAction, PublicPageHeader } from './parts.tsx';

const FACTS = [
  ['factYears', 'factYearsValue'],
  ['factBackups', 'factBackupsValue'],
  ['factDrives', 'factDrivesValue'],
  ['factSupport', 'factSupportValue'],
] as const;

const VALUES = [
  ['valueSafetyTitle', 'valueSafetyBody'],
  ['valueEuTitle', 'valueEuBody'],
  ['valuePeopleTitle', 'valuePeopleBody'],
] as const;

export function AboutPage() {
  const { t } = useTranslation('public');
  return (
    <div data-testid="about-page">
      <PublicPageHeader title={t('about.title')} lead={t('about.lead')} />
      <section className="section section--tight" aria-labelledby="about-story">
        <div className="container prose">
          <h2 id="about-story">{t('about.storyTitle')}</h2>
          <p>{t('about.story1')}</p>
          <p>{t('about.story2')}</p>
        </div>
      </section>
      <section className="section section--alt" aria-labelledby="about-facts">
        <div className="container">
          <h2 id="about-facts">{t('about.factsTitle')}</h2>
          <dl className="fact-grid">
            {FACTS.map(([label, value]) => (
              <div key={label} className="card fact">
                <dt className="fact__label">{t(`about.${label}`)}</dt>
                <dd className="fact__value">{t(`about.${value}`)}</dd>
              </div>
            ))}
          </dl>
        </div>
      </section>
      <section className="section" aria-labelledby="about-values">
        <div className="container">
          <h2 id="about-values">{t('about.valuesTitle')}</h2>
          <ul className="feature-grid" role="list">
            {VALUES.map(([title, body]) => (
              <li key={title} className="card">
                <h3>{t(`about.${title}`)}</h3>
                <p className="text-muted">{t(`about.${body}`)}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>
      <PublicCallToAction id="about-cta" title={t('about.ctaTitle')} body={t('about.ctaBody')} />
    </div>
  );
}
