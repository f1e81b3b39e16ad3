// /about: the company behind Debesis, a data-center operator since 2007 (spec §1).
import { useTranslation } from 'react-i18next';
import { shippedList, shippedOnly, type Needs } from '../../lib/features.ts';
import { PublicCallToAction, PublicPageHeader } from './parts.tsx';

const FACTS: { label: string; value: string; needs?: Needs }[] = [
  { label: 'factYears', value: 'factYearsValue' },
  { label: 'factBackups', value: 'factBackupsValue', needs: 'backups' },
  { label: 'factDrives', value: 'factDrivesValue' },
  { label: 'factSupport', value: 'factSupportValue' },
];

const VALUES = [
  ['valueSafetyTitle', 'valueSafetyBody'],
  ['valueEuTitle', 'valueEuBody'],
  ['valuePeopleTitle', 'valuePeopleBody'],
] as const;

export function AboutPage() {
  const { t, i18n } = useTranslation('public');
  // The fact keys are plain strings; the cast names one real key so the type check still holds.
  const text = (key: string) => t(`about.${key}` as 'about.factYears');
  const features = shippedList(
    [
      { needs: 'samba', text: t('about.storyParts.samba') },
      { needs: 'vpn', text: t('about.storyParts.vpn') },
      { needs: 'backups', text: t('about.storyParts.backups') },
    ],
    i18n.language,
  );
  return (
    <div data-testid="about-page">
      <PublicPageHeader title={t('about.title')} lead={t('about.lead')} />
      <section className="section section--tight" aria-labelledby="about-story">
        <div className="container prose">
          <h2 id="about-story">{t('about.storyTitle')}</h2>
          <p>{t('about.story1')}</p>
          <p>{t('about.story2', { features })}</p>
        </div>
      </section>
      <section className="section section--alt" aria-labelledby="about-facts">
        <div className="container">
          <h2 id="about-facts">{t('about.factsTitle')}</h2>
          <dl className="fact-grid">
            {shippedOnly(FACTS).map(({ label, value }) => (
              <div key={label} className="card fact">
                <dt className="fact__label">{text(label)}</dt>
                <dd className="fact__value">{text(value)}</dd>
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
