// The landing page (spec §1, §2): what Debesis is, the three solutions, a plan teaser and the way
// to order. Every call to action leads to plan selection.
import type { ParseKeys, TFunction } from 'i18next';
import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { CheckList } from '../components/CheckList.tsx';
import { CtaLink } from '../components/CtaLink.tsx';
import { DefinitionList } from '../components/DefinitionList.tsx';
import { ArrowRightIcon, FolderIcon, ServerIcon, ShieldIcon } from '../components/icons.tsx';
import { FEATURES_ANCHOR } from '../components/SitePageLinks.tsx';
import { useDocumentTitle } from '../components/useDocumentTitle.ts';
import { isShipped, shippedList, shippedOnly, type Needs } from '../lib/features.ts';
import { WorkspacePreview } from './home/WorkspacePreview.tsx';
import './home/home.css';

export function HomePage() {
  const { t } = useTranslation();
  useDocumentTitle(t('home.metaTitle'), { full: true });
  return (
    <div className="home">
      <Hero />
      <Solutions />
      <Included />
      <PlanTeaser />
      <FinalCallToAction />
    </div>
  );
}

// Texts about a feature that has not shipped yet (SHIPPED_FEATURES) are left out until it has.
const HERO_POINTS: { key: ParseKeys; needs?: Needs }[] = [
  { key: 'home.hero.pointHosting' },
  { key: 'home.hero.pointBackups', needs: 'backups' },
  { key: 'home.hero.pointUsers', needs: 'users' },
  { key: 'home.hero.pointPlans' },
];

function Hero() {
  const { t, i18n } = useTranslation();
  const points = shippedOnly(HERO_POINTS).map(({ key }) => key);
  const features = shippedList(
    [
      { needs: 'samba', text: t('home.hero.leadParts.samba') },
      { needs: 'vpn', text: t('home.hero.leadParts.vpn') },
      { needs: 'backups', text: t('home.hero.leadParts.backups') },
    ],
    i18n.language,
  );
  return (
    <section className="hero" aria-labelledby="hero-title">
      <div className="container hero__grid">
        <div className="hero__copy">
          <p className="eyebrow">{t('home.hero.eyebrow')}</p>
          <h1 id="hero-title" className="hero__title">
            {t('home.hero.title')}
          </h1>
          <p className="hero__lead">{t('home.hero.lead', { features })}</p>
          <div className="button-row">
            <CtaLink to="/auth/plans" tone="primary" testId="home-cta-plans" place="home-hero-plans">
              {t('home.hero.primaryCta')}
              <ArrowRightIcon />
            </CtaLink>
            <CtaLink to="/pricing" tone="secondary" testId="home-cta-pricing" place="home-hero-pricing">
              {t('home.hero.secondaryCta')}
            </CtaLink>
          </div>
          <CheckList
            className="hero__points"
            items={points.map((point) => ({ key: point, text: t(point) }))}
          />
        </div>
        <WorkspacePreview />
      </div>
    </section>
  );
}

interface Solution {
  key: 'secureAccess' | 'teamDrive' | 'businessStorage';
  to: string;
  Icon: ComponentType;
  needs?: Needs;
}

const SOLUTIONS: Solution[] = [
  { key: 'secureAccess', to: '/solutions/secure-access', Icon: ShieldIcon, needs: 'vpn' },
  { key: 'teamDrive', to: '/solutions/team-drive', Icon: FolderIcon },
  { key: 'businessStorage', to: '/solutions/business-storage', Icon: ServerIcon },
];

/** A solution card's text: its protocols and backups named only as they ship. */
function solutionBody(key: Solution['key'], t: TFunction, language: string): string {
  if (key === 'teamDrive') {
    const protocols = shippedList(
      [
        { needs: 'samba', text: t('home.solutions.teamDrive.protocolParts.samba') },
        { needs: 'nfs', text: t('home.solutions.teamDrive.protocolParts.nfs') },
        { needs: 'ftp', text: t('home.solutions.teamDrive.protocolParts.ftp') },
      ],
      language,
      'disjunction',
    );
    return t('home.solutions.teamDrive.body', { protocols });
  }
  if (key === 'businessStorage') {
    const body = t('home.solutions.businessStorage.body');
    return isShipped('backups') ? `${body} ${t('home.solutions.businessStorage.bodyBackups')}` : body;
  }
  return t(`home.solutions.${key}.body`);
}

function Solutions() {
  const { t, i18n } = useTranslation();
  return (
    <section id={FEATURES_ANCHOR} className="section" aria-labelledby="solutions-title">
      <div className="container">
        <header className="section__header">
          <h2 id="solutions-title">{t('home.solutions.title')}</h2>
          <p className="lead text-muted">{t('home.solutions.lead')}</p>
        </header>
        <ul className="solution-grid" role="list">
          {shippedOnly(SOLUTIONS).map(({ key, to, Icon }) => (
            <li key={key} className="card card--interactive solution-card" data-testid={`solution-${key}`}>
              <span className="solution-card__icon">
                <Icon />
              </span>
              <h3>{t(`home.solutions.${key}.title`)}</h3>
              <p className="text-muted">{solutionBody(key, t, i18n.language)}</p>
              <Link
                to={to}
                className="solution-card__link"
                data-analytics={`solution_click:${to.split('/').at(-1) ?? key}`}
              >
                {t(`home.solutions.${key}.link`)}
                <ArrowRightIcon width={16} height={16} />
              </Link>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

const INCLUDED: { key: ParseKeys; needs?: Needs }[] = [
  { key: 'home.included.samba', needs: 'samba' },
  { key: 'home.included.users', needs: 'users' },
  { key: 'home.included.nfs', needs: 'nfs' },
  { key: 'home.included.ftp', needs: 'ftp' },
  { key: 'home.included.vpn', needs: 'vpn' },
  { key: 'home.included.backups', needs: 'backups' },
  { key: 'home.included.activity', needs: 'activity' },
];

function Included() {
  const { t } = useTranslation();
  return (
    <section className="section section--tight" aria-labelledby="included-title">
      <div className="container included">
        <h2 id="included-title" className="included__title">
          {t('home.included.title')}
        </h2>
        <CheckList
          className="included__list"
          items={shippedOnly(INCLUDED).map(({ key: item }) => ({ key: item, text: t(item) }))}
        />
      </div>
    </section>
  );
}

interface PlanSummary {
  name: string;
  storage: string;
  users: number;
  address: 'natIp' | 'dedicatedIp';
  support: 'supportEmail' | 'supportPriority' | 'supportAllDay';
}

// Marketing figures of spec §1; prices come from the API on the plans page.
const PLANS: PlanSummary[] = [
  { name: 'Starter', storage: '3 GB', users: 2, address: 'natIp', support: 'supportEmail' },
  { name: 'MINI', storage: '50 GB', users: 5, address: 'dedicatedIp', support: 'supportPriority' },
  { name: 'OPTIMIZED', storage: '500 GB', users: 10, address: 'dedicatedIp', support: 'supportAllDay' },
  { name: 'BIG ONE', storage: '2 TB', users: 20, address: 'dedicatedIp', support: 'supportAllDay' },
];

function PlanTeaser() {
  const { t } = useTranslation();
  return (
    <section className="section section--alt" aria-labelledby="plans-title">
      <div className="container plan-teaser">
        <div className="plan-teaser__copy">
          <h2 id="plans-title">{t('home.plans.title')}</h2>
          <p className="text-muted">{t('home.plans.lead')}</p>
          <p className="plan-teaser__price" data-testid="home-price-from">
            <span>{t('home.plans.priceFrom')}</span> <strong>{t('home.plans.priceAmount')}</strong>{' '}
            <span>{t('home.plans.pricePeriod')}</span>
          </p>
          <CtaLink to="/auth/plans" tone="primary" testId="home-plans-cta" place="home-plans">
            {t('home.plans.cta')}
          </CtaLink>
        </div>
        <ul className="plan-grid" role="list">
          {PLANS.map((plan) => (
            <li key={plan.name} className="card plan-card">
              <h3 className="plan-card__name">{plan.name}</h3>
              <DefinitionList
                className="plan-card__facts"
                items={[
                  { term: t('home.plans.storage'), value: plan.storage },
                  { term: t('home.plans.users'), value: plan.users },
                  { term: t('home.plans.address'), value: t(`home.plans.${plan.address}`) },
                  { term: t('home.plans.support'), value: t(`home.plans.${plan.support}`) },
                ]}
              />
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

function FinalCallToAction() {
  const { t } = useTranslation();
  return (
    <section className="section" aria-labelledby="final-cta-title">
      <div className="container">
        <div className="cta-band">
          <div>
            <h2 id="final-cta-title">{t('home.finalCta.title')}</h2>
            <p>{t('home.finalCta.body')}</p>
          </div>
          <div className="button-row">
            <CtaLink to="/auth/plans" tone="on-brand" testId="home-final-cta" place="home-final">
              {t('home.finalCta.primary')}
            </CtaLink>
            <Link to="/contact" className="btn btn--outline-on-brand btn--lg">
              {t('home.finalCta.secondary')}
            </Link>
          </div>
        </div>
      </div>
    </section>
  );
}
