import type { ParseKeys } from 'i18next';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useDocumentTitle } from '../components/useDocumentTitle.ts';

const LINKS: { to: string; label: ParseKeys; testId: string }[] = [
  { to: '/dashboard', label: 'notFound.dashboard', testId: 'not-found-dashboard' },
  { to: '/dashboard/services', label: 'notFound.services', testId: 'not-found-services' },
  { to: '/dashboard/plans', label: 'notFound.plans', testId: 'not-found-plans' },
  { to: '/', label: 'notFound.home', testId: 'not-found-home' },
  { to: '/auth/login', label: 'notFound.signIn', testId: 'not-found-sign-in' },
];

export function NotFoundPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('notFound.title'));
  return (
    <section className="container section not-found" data-testid="not-found">
      <p className="eyebrow">{t('notFound.code')}</p>
      <h1>{t('notFound.title')}</h1>
      <p className="lead text-muted">{t('notFound.body')}</p>
      <h2 className="not-found__links-heading">{t('notFound.linksHeading')}</h2>
      <ul role="list" className="not-found__links">
        {LINKS.map(({ to, label, testId }) => (
          <li key={to}>
            <Link to={to} className="btn btn--secondary" data-testid={testId}>
              {t(label)}
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
