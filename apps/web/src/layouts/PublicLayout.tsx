import { Outlet } from 'react-router';
import { CookieConsent } from '../components/CookieConsent.tsx';
import { MainContent } from '../components/MainContent.tsx';
import { SiteFooter } from '../components/SiteFooter.tsx';
import { SiteHeader } from '../components/SiteHeader.tsx';
import { SkipLink } from '../components/SkipLink.tsx';

export function PublicLayout() {
  return (
    <div className="page">
      <SkipLink />
      <CookieConsent />
      <SiteHeader pageLinks />
      <MainContent className="page__main">
        <Outlet />
      </MainContent>
      <SiteFooter />
    </div>
  );
}
