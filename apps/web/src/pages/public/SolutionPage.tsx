// The three solution pages of spec §2 (/solutions/secure-access, team-drive, business-storage):
// what the solution gives, who it suits, and the way to order.
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { CheckIcon, FolderIcon, ServerIcon, ShieldIcon } from '../../components/icons.tsx';
import { PublicCallToAction, PublicPageHeader } from './parts.tsx';

const SOLUTIONS = {
  secureAccess: {
    Icon: ShieldIcon,
    features: ['vpn', 'revoke', 'sessions', 'log', 'ldap'],
    useCases: ['remote', 'field', 'contractors'],
  },
  teamDrive: {
    Icon: FolderIcon,
    features: ['samba', 'permissions', 'nfsFtp', 'links', 'portal'],
    useCases: ['office', 'agencies', 'accounting'],
  },
  businessStorage: {
    Icon: ServerIcon,
    features: ['sizes', 'backups', 'dedicatedIp', 'monitoring', 'invoices'],
    useCases: ['archive', 'backupTarget', 'growing'],
  },
} as const;

type SolutionKey = keyof typeof SOLUTIONS;

function SolutionPage({ solution }: { solution: SolutionKey }) {
  const { t } = useTranslation('public');
  const { Icon, features, useCases } = SOLUTIONS[solution];
  // Each solution's item keys differ; the cast names one real key so the type check still holds.
  const text = (path: string) => t(`solutions.${solution}.${path}` as 'solutions.secureAccess.title');
  return (
    <div data-testid={`solution-page-${solution}`}>
      <PublicPageHeader title={text('title')} lead={text('lead')}>
        <span className="public-hero__icon">
          <Icon />
        </span>
        <div className="button-row">
          <Link
            to="/auth/plans"
            className="btn btn--primary btn--lg"
            data-testid="solution-cta-plans"
            data-analytics={`cta_click:solution-${solution}`}
          >
            {t('common.seePlans')}
          </Link>
          <Link to="/docs" className="btn btn--secondary btn--lg">
            {t('common.readDocs')}
          </Link>
        </div>
      </PublicPageHeader>
      <section className="section section--tight">
        <div className="container solution-detail">
          <div>
            <h2>{t('solutions.whatYouGet')}</h2>
            <ul className="check-list" role="list">
              {features.map((id) => (
                <li key={id}>
                  <CheckIcon />
                  {text(`features.${id}`)}
                </li>
              ))}
            </ul>
          </div>
          <div className="card">
            <h2>{t('solutions.goodFor')}</h2>
            <ul className="solution-detail__cases">
              {useCases.map((id) => (
                <li key={id}>{text(`useCases.${id}`)}</li>
              ))}
            </ul>
          </div>
        </div>
      </section>
      <PublicCallToAction
        id={`${solution}-cta`}
        title={t('solutions.ctaTitle')}
        body={t('solutions.ctaBody')}
      />
    </div>
  );
}

export function SecureAccessPage() {
  return <SolutionPage solution="secureAccess" />;
}

export function TeamDrivePage() {
  return <SolutionPage solution="teamDrive" />;
}

export function BusinessStoragePage() {
  return <SolutionPage solution="businessStorage" />;
}
