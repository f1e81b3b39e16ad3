// The public site's page links in the header: Features (the home page's solutions, which say what
// a workspace does), Pricing and Docs. A wide screen shows them in the bar; a phone's bar has no
// room, so there they sit behind a menu button on the header's second row. The menu is a
// <details>: it opens before the app has taken over a prerendered page, with no script of its own.
import { useEffect, useRef, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { MenuIcon } from './icons.tsx';

/** The home page's section the Features link shows (HomePage.tsx Solutions). */
export const FEATURES_ANCHOR = 'features';

const PAGE_LINKS = [
  { id: 'features', to: `/#${FEATURES_ANCHOR}`, label: 'header.features' },
  { id: 'pricing', to: '/pricing', label: 'header.pricing' },
  { id: 'docs', to: '/docs', label: 'header.docs' },
] as const;

function PageLinkList({ place, onFollow }: { place: 'bar' | 'menu'; onFollow?: () => void }) {
  const { t } = useTranslation();
  return (
    <ul className={`page-links page-links--${place}`} role="list">
      {PAGE_LINKS.map((link) => (
        <li key={link.id}>
          <Link
            to={link.to}
            className="page-links__link"
            data-testid={`header-${place}-${link.id}`}
            onClick={onFollow}
          >
            {t(link.label)}
          </Link>
        </li>
      ))}
    </ul>
  );
}

/** The links in the bar, for a wide screen (layout.css hides them on a phone). */
export function PageLinksBar() {
  const { t } = useTranslation();
  return (
    <nav className="site-header__pages" aria-label={t('header.pagesNavigation')}>
      <PageLinkList place="bar" />
    </nav>
  );
}

/** The phone's menu of the same links (layout.css shows it only on a phone). */
export function PageLinksMenu() {
  const { t } = useTranslation();
  const { key } = useLocation();
  const menu = useRef<HTMLDetailsElement>(null);

  const close = () => {
    if (menu.current) menu.current.open = false;
  };
  // A link followed closes it at once: the page it opened is the answer. The page changing
  // otherwise (back, a link elsewhere on the page) closes it too, once the new page is in.
  useEffect(close, [key]);

  const closeOnEscape = (event: KeyboardEvent<HTMLDetailsElement>) => {
    if (event.key !== 'Escape' || !menu.current?.open) return;
    menu.current.open = false;
    menu.current.querySelector('summary')?.focus();
  };

  return (
    <details className="site-menu" ref={menu} onKeyDown={closeOnEscape} data-testid="header-menu">
      <summary className="btn btn--ghost site-menu__button" data-testid="header-menu-button">
        <MenuIcon />
        {t('header.menu')}
      </summary>
      <nav className="site-menu__panel" aria-label={t('header.pagesNavigation')}>
        <PageLinkList place="menu" onFollow={close} />
      </nav>
    </details>
  );
}
