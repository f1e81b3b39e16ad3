// /privacy and /terms: the legal texts, one section per topic with a table of contents.
import { RETENTION_MONTHS } from '@debesis/contract';
import { useTranslation } from 'react-i18next';
import { shippedOnly, type Needs } from '../../lib/features.ts';
import { PublicPageHeader } from './parts.tsx';

/** A section about a feature is part of the terms once the feature has shipped. */
const SECTIONS: Record<'privacy' | 'terms', { id: string; needs?: Needs }[]> = {
  privacy: ['controller', 'data', 'purposes', 'cookies', 'retention', 'rights', 'processors'].map((id) => ({
    id,
  })),
  terms: [
    { id: 'service' },
    { id: 'account' },
    { id: 'payment' },
    { id: 'expiry' },
    { id: 'use' },
    { id: 'availability' },
    { id: 'backups', needs: 'backups' },
    { id: 'law' },
  ],
};

type LegalKind = keyof typeof SECTIONS;

function LegalPage({ kind }: { kind: LegalKind }) {
  const { t } = useTranslation('public');
  // The two kinds' section keys differ; i18next's types check each key against its own kind.
  // The retention figures are the ones the API's maintenance job applies.
  const sections = shippedOnly(SECTIONS[kind]).map(({ id }) => id);
  const section = (id: string, part: 'title' | 'body') =>
    t(`${kind}.sections.${id}.${part}` as `privacy.sections.retention.body`, {
      contactMonths: RETENTION_MONTHS.contactMessages,
      analyticsMonths: RETENTION_MONTHS.analyticsEvents,
    });
  return (
    <div data-testid={`${kind}-page`}>
      <PublicPageHeader title={t(`${kind}.title`)} lead={t(`${kind}.lead`)}>
        <p className="text-muted">{t('common.lastUpdated')}</p>
      </PublicPageHeader>
      <div className="section section--tight">
        <div className="container legal">
          <nav className="legal__toc" aria-labelledby={`${kind}-toc`}>
            <h2 id={`${kind}-toc`} className="legal__toc-title">
              {t('common.onThisPage')}
            </h2>
            <ol>
              {sections.map((id) => (
                <li key={id}>
                  <a href={`#${kind}-${id}`}>{section(id, 'title')}</a>
                </li>
              ))}
            </ol>
          </nav>
          <div className="prose">
            {sections.map((id) => (
              <section key={id} id={`${kind}-${id}`} aria-labelledby={`${kind}-${id}-title`}>
                <h2 id={`${kind}-${id}-title`}>{section(id, 'title')}</h2>
                <p>{section(id, 'body')}</p>
              </section>
            ))}
          </div>
        </div>
      </div>
    </div>
  );
}

export function PrivacyPage() {
  return <LegalPage kind="privacy" />;
}

export function TermsPage() {
  return <LegalPage kind="terms" />;
}
