// Signed-in pages: header, side menu, content. On narrow screens the menu is a drawer that
// slides in from a menu button and gets out of the way again on navigation or Escape.
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation } from 'react-router';
import { CloseIcon, MenuIcon } from '../components/icons.tsx';
import { MainContent } from '../components/MainContent.tsx';
import { SiteHeader } from '../components/SiteHeader.tsx';
import { SkipLink } from '../components/SkipLink.tsx';
import { useServiceReadyNotifications } from '../notifications/useServiceReadyNotifications.ts';
import { DashboardNav } from './DashboardNav.tsx';

const DRAWER_ID = 'dashboard-menu';

export function DashboardLayout() {
  const { t } = useTranslation();
  const [menuOpen, setMenuOpen] = useState(false);
  const [menuPath, setMenuPath] = useState<string | null>(null);
  const { pathname } = useLocation();
  const toggleRef = useRef<HTMLButtonElement>(null);
  const drawerRef = useRef<HTMLDivElement>(null);
  useServiceReadyNotifications();

  // Following a link closes the drawer (state adjusted during render, not in an effect).
  if (menuOpen && menuPath !== pathname) setMenuOpen(false);

  function openMenu(): void {
    setMenuPath(pathname);
    setMenuOpen(true);
  }

  function closeMenu({ returnFocus }: { returnFocus: boolean }): void {
    setMenuOpen(false);
    if (returnFocus) toggleRef.current?.focus();
  }

  useEffect(() => {
    if (!menuOpen) return;
    drawerRef.current?.querySelector<HTMLElement>('a, button')?.focus();
    const onKeyDown = (event: KeyboardEvent): void => {
      if (event.key !== 'Escape') return;
      setMenuOpen(false);
      toggleRef.current?.focus();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [menuOpen]);

  const menuButton = (
    <button
      ref={toggleRef}
      type="button"
      className="btn btn--ghost btn--icon dashboard-menu-button"
      aria-expanded={menuOpen}
      aria-controls={DRAWER_ID}
      data-testid="dashboard-menu-button"
      onClick={() => (menuOpen ? closeMenu({ returnFocus: false }) : openMenu())}
    >
      <MenuIcon />
      <span className="visually-hidden">{t('dashboard.navigation')}</span>
    </button>
  );

  return (
    <div className="page dashboard-page">
      <SkipLink />
      <SiteHeader leading={menuButton} />
      <div className="dashboard-shell container">
        <div
          className="dashboard-drawer__backdrop"
          hidden={!menuOpen}
          onClick={() => closeMenu({ returnFocus: true })}
        />
        <div id={DRAWER_ID} ref={drawerRef} className="dashboard-drawer" data-open={menuOpen}>
          <button
            type="button"
            className="btn btn--ghost btn--icon dashboard-drawer__close"
            onClick={() => closeMenu({ returnFocus: true })}
          >
            <CloseIcon />
            <span className="visually-hidden">{t('dashboard.closeMenu')}</span>
          </button>
          <DashboardNav />
        </div>
        <MainContent className="dashboard-shell__main">
          <Outlet />
        </MainContent>
      </div>
    </div>
  );
}
