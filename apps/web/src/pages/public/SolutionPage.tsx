// The three solution pages of spec §2 (/solutions/secure-access, team-drive, business-storage):
// what the solution gives, who it suits, and the way to order.
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { CheckList } from '../../components/CheckList.tsx';
import { CtaLink } from '../../components/CtaLink.tsx';
import { FolderIcon, ServerIcon, ShieldIcon } from '../../components/icons.tsx';
import { isShipped, shippedOnly, type Needs } from '../../lib/features.ts';
import { NotFoundPage } from '../NotFoundPage.tsx';
import { PublicCallToAction, PublicPageHeader } from './parts.tsx';

interface Solution {
  Icon: typeof ShieldIcon;
  /** The page exists once these have shipped (until then: not found, and no link leads here). */
  needs?: Needs;
  /** Each feature's line shows once what it names has shipped. */
  features: readonly { id: string; needs?: Needs }[];
  useCases: readonly string[];
}

const SOLUTIONS = {
  secureAccess: {
    Icon: ShieldIcon,
    needs: 'vpn',
    features: [
      { id: 'vpn', needs: 'vpn' },
      { id: 'revoke', needs: 'vpn' },
      { id: 'sessions', needs: 'vpn' },
      { id: 'log', needs: 'activity' },
      { id: 'ldap', needs: 'ldap' },
    ],
    useCases: ['remote', 'field', 'contractors'],
  },
  teamDrive: {
    Icon: FolderIcon,
    features: [
      { id: 'samba', needs: 'samba' },
      { id: 'permissions', needs: 'users' },
      { id: 'nfsFtp', needs: ['nfs', 'ftp'] },
      { id: 'links', needs: 'shareLinks' },
      { id: 'portal', needs: 'linuxPortal' },
      { id: 'log', needs: 'activity' },
    ],
    useCases: ['office', 'agencies', 'accounting'],
  },
  businessStorage: {
    Icon: ServerIcon,
    features: [
      { id: 'sizes', needs: 'storage' },
      { id: 'backups', needs: 'backups' },
      { id: 'dedicatedIp' },
      { id: 'overview' },
      { id: 'invoices', needs: 'invoices' },
    ],
    useCases: ['archive', 'secondCopy', 'growing'],
  },
} as const satisfies Record<string, Solution>;

type SolutionKey = keyof typeof SOLUTIONS;

function SolutionPage({ solution }: { solution: SolutionKey }) {
  const { t } = useTranslation('public');
  const { Icon, features, useCases }: Solution = SOLUTIONS[solution];
  // Each solution's item keys differ; the cast names one real key so the type check still holds.
  const text = (path: string) => t(`solutions.${solution}.${path}` as 'solutions.secureAccess.title');
  if (!isShipped((SOLUTIONS[solution] as Solution).needs)) return <NotFoundPage />;
  return (
    <div data-testid={`solution-page-${solution}`}>
      <PublicPageHeader title={text('title')} lead={text('lead')}>
        <span className="public-hero__icon">
          <Icon />
        </span>
        <div className="button-row">
          <CtaLink to="/auth/plans" tone="primary" testId="solution-cta-plans" place={`solution-${solution}`}>
            {t('common.seePlans')}
          </CtaLink>
          <Link to="/docs" className="btn btn--secondary btn--lg">
            {t('common.readDocs')}
          </Link>
        </div>
      </PublicPageHeader>
      <section className="section section--tight">
        <div className="container solution-detail">
          <div>
            <h2>{t('solutions.whatYouGet')}</h2>
            <CheckList
              items={shippedOnly(features).map(({ id }) => ({ key: id, text: text(`features.${id}`) }))}
            />
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
