// The header of every layout (spec §2): logo, the public site's pages, theme and language, and
// who you are.
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { hasStoredTokens, useLogout, useSession } from '../auth/session.ts';
import { LanguageToggle } from './LanguageToggle.tsx';
import { Logo } from './Logo.tsx';
import { PageLinksBar, PageLinksMenu } from './SitePageLinks.tsx';
import { ThemeToggle } from './ThemeToggle.tsx';

interface SiteHeaderProps {
  /** Placed before the logo; the dashboard puts its menu button here. */
  leading?: ReactNode;
  /** The public site's page links (Features, Pricing, Docs); the dashboard has its own menu. */
  pageLinks?: boolean;
}

/** The logo, the way home: the same in every header, the sign-in pages' plain one included. */
export function HeaderBrand() {
  const { t } = useTranslation();
  return (
    <Link to="/" className="site-header__brand" aria-label={t('header.homeLink')} data-testid="header-home">
      <Logo />
    </Link>
  );
}

/** Theme and language, which a visitor sets before signing in as well as after. */
export function HeaderPreferences() {
  return (
    <div className="site-header__preferences">
      <ThemeToggle />
      <LanguageToggle />
    </div>
  );
}

export function SiteHeader({ leading, pageLinks = false }: SiteHeaderProps) {
  const { t } = useTranslation();
  return (
    <header className="site-header">
      <div className="container site-header__bar">
        {leading}
        <HeaderBrand />
        {pageLinks && <PageLinksBar />}
        <div className="site-header__tools">
          {pageLinks && <PageLinksMenu />}
          <HeaderPreferences />
        </div>
        <nav className="site-header__nav" aria-label={t('header.primaryNavigation')}>
          <AccountLinks />
        </nav>
      </div>
    </header>
  );
}

function displayName(user: { first_name: string; last_name: string; email: string }): string {
  const name = `${user.first_name} ${user.last_name}`.trim();
  return name || user.email;
}

function AccountLinks() {
  const { t } = useTranslation();
  const { status, user } = useSession();
  const logout = useLogout();
  const signedIn =
    status === 'authenticated' || status === 'loading' || (status === 'failed' && hasStoredTokens());
  if (signedIn) {
    return (
      <div
        className="site-header__account"
        role="group"
        aria-label={t('header.account')}
        data-testid="header-user-menu"
      >
        {user && (
          <span className="site-header__user" title={user.email} data-testid="header-user-name">
            <span className="site-header__avatar" aria-hidden="true">
              {displayName(user).charAt(0).toUpperCase()}
            </span>
            <span className="site-header__user-name">{displayName(user)}</span>
          </span>
        )}
        <Link
          to="/dashboard"
          className="btn btn--ghost site-header__dashboard-link"
          data-testid="header-dashboard"
        >
          {t('header.dashboard')}
        </Link>
        <button type="button" className="btn btn--secondary" onClick={logout} data-testid="header-logout">
          {t('header.logOut')}
        </button>
      </div>
    );
  }
  return (
    <>
      <Link to="/auth/login" className="btn btn--ghost" data-testid="header-sign-in">
        {t('header.signIn')}
      </Link>
      <Link to="/auth/register" className="btn btn--primary" data-testid="header-register">
        {t('header.register')}
      </Link>
    </>
  );
}
