// Sign-in, registration and password pages: the form is the page, so no footer columns, only
// the way back and the legal links.
import { useTranslation } from 'react-i18next';
import { Link, Outlet } from 'react-router';
import { MainContent } from '../components/MainContent.tsx';
import { HeaderBrand, HeaderPreferences } from '../components/SiteHeader.tsx';
import { SkipLink } from '../components/SkipLink.tsx';

export function AuthLayout() {
  const { t } = useTranslation();
  return (
    <div className="page auth-page">
      <SkipLink />
      <header className="site-header site-header--plain">
        <div className="container site-header__bar">
          <HeaderBrand />
          <HeaderPreferences />
        </div>
      </header>
      <MainContent className="auth-page__main">
        <Outlet />
      </MainContent>
      <footer className="auth-page__footer">
        <div className="container auth-page__footer-inner">
          <p>{t('footer.copyright', { year: new Date().getFullYear() })}</p>
          <ul role="list" className="inline-list">
            <li>
              <Link to="/">{t('authLayout.backHome')}</Link>
            </li>
            <li>
              <Link to="/privacy">{t('footer.privacy')}</Link>
            </li>
            <li>
              <Link to="/terms">{t('footer.terms')}</Link>
            </li>
          </ul>
        </div>
      </footer>
    </div>
  );
}
