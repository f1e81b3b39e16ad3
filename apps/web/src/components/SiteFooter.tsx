// The public footer (spec §2): four link columns, social links and the copyright line.
import { useTranslation } from 'react-i18next';
import type { ParseKeys } from 'i18next';
import type { ComponentType } from 'react';
import { Link } from 'react-router';
import { openConsentSettings } from '../consent/consent.ts';
import { shippedOnly, type Needs } from '../lib/features.ts';
import { FacebookIcon, LinkedInIcon, XIcon } from './icons.tsx';
import { Logo } from './Logo.tsx';

interface FooterColumn {
  heading: ParseKeys;
  links: { to: string; label: ParseKeys; needs?: Needs }[];
}

const COLUMNS: FooterColumn[] = [
  {
    heading: 'footer.company',
    links: [
      { to: '/about', label: 'footer.about' },
      { to: '/contact', label: 'footer.contact' },
    ],
  },
  {
    heading: 'footer.solutions',
    links: [
      { to: '/solutions/secure-access', label: 'footer.secureAccess', needs: 'vpn' },
      { to: '/solutions/team-drive', label: 'footer.teamDrive' },
      { to: '/solutions/business-storage', label: 'footer.businessStorage' },
    ],
  },
  {
    heading: 'footer.legal',
    links: [
      { to: '/privacy', label: 'footer.privacy' },
      { to: '/terms', label: 'footer.terms' },
    ],
  },
  {
    heading: 'footer.support',
    links: [
      { to: '/docs', label: 'footer.docs' },
      { to: '/faq', label: 'footer.faq' },
    ],
  },
];

const SOCIAL_LINKS: { href: string; label: ParseKeys; Icon: ComponentType }[] = [
  { href: 'https://www.linkedin.com/company/debesis', label: 'footer.linkedin', Icon: LinkedInIcon },
  { href: 'https://www.facebook.com/debesis', label: 'footer.facebook', Icon: FacebookIcon },
  { href: 'https://x.com/debesis', label: 'footer.x', Icon: XIcon },
];

export function SiteFooter() {
  const { t } = useTranslation();
  return (
    <footer className="site-footer">
      <div className="container">
        <div className="site-footer__grid">
          <div className="site-footer__about">
            <Logo />
            <p className="site-footer__tagline">{t('footer.tagline')}</p>
          </div>
          {COLUMNS.map((column) => (
            <nav
              key={column.heading}
              className="site-footer__column"
              aria-labelledby={`footer-${column.heading}`}
            >
              <h2 id={`footer-${column.heading}`} className="site-footer__heading">
                {t(column.heading)}
              </h2>
              <ul role="list">
                {shippedOnly(column.links).map((link) => (
                  <li key={link.to}>
                    <Link to={link.to}>{t(link.label)}</Link>
                  </li>
                ))}
              </ul>
            </nav>
          ))}
        </div>
        <div className="site-footer__bottom">
          <p>{t('footer.copyright', { year: new Date().getFullYear() })}</p>
          <button
            type="button"
            className="site-footer__cookies"
            data-testid="footer-cookie-settings"
            onClick={openConsentSettings}
          >
            {t('footer.cookieSettings')}
          </button>
          <ul className="site-footer__social" role="list" aria-label={t('footer.social')}>
            {SOCIAL_LINKS.map(({ href, label, Icon }) => (
              <li key={href}>
                <a
                  href={href}
                  target="_blank"
                  rel="noopener noreferrer"
                  aria-label={t(label)}
                  className="icon-link"
                >
                  <Icon />
                </a>
              </li>
            ))}
          </ul>
        </div>
      </div>
    </footer>
  );
}
