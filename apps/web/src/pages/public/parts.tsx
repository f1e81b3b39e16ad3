// Pieces the public pages share: the page's opening (title and lead), a closing call to action,
// and the `public` namespace's texts (loaded here, with the first public page).
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { CtaLink } from '../../components/CtaLink.tsx';
import { ArrowRightIcon } from '../../components/icons.tsx';
import { useDocumentTitle } from '../../components/useDocumentTitle.ts';
import '../../i18n/public-messages.ts';
import './public.css';

export function PublicPageHeader({
  title,
  lead,
  children,
}: {
  title: string;
  lead: string;
  children?: ReactNode;
}) {
  useDocumentTitle(title);
  return (
    <header className="public-hero">
      <div className="container public-hero__inner">
        <h1 className="public-hero__title">{title}</h1>
        <p className="lead public-hero__lead">{lead}</p>
        {children}
      </div>
    </header>
  );
}

/** The closing band: plans first, talking to us second. */
export function PublicCallToAction({ title, body, id }: { title: string; body: string; id: string }) {
  const { t } = useTranslation('public');
  return (
    <section className="section" aria-labelledby={id}>
      <div className="container">
        <div className="cta-band">
          <div>
            <h2 id={id}>{title}</h2>
            <p>{body}</p>
          </div>
          <div className="button-row">
            <CtaLink to="/auth/plans" tone="on-brand" testId="public-cta-plans" place={id}>
              {t('common.seePlans')}
              <ArrowRightIcon />
            </CtaLink>
            <Link to="/contact" className="btn btn--outline-on-brand btn--lg">
              {t('common.contactUs')}
            </Link>
          </div>
        </div>
      </div>
    </section>
  );
}
