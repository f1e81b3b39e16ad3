// A call to action of the public site: a large button-styled link whose clicks are counted as
// `cta_click` with the place it stands in (analytics/analytics.ts reads `data-analytics`).
import type { ReactNode } from 'react';
import { Link } from 'react-router';

export function CtaLink({
  to,
  tone,
  testId,
  place,
  children,
}: {
  to: string;
  /** The button style: `primary` on a page, `on-brand` on the coloured band. */
  tone: 'primary' | 'secondary' | 'on-brand';
  testId: string;
  /** Where the click came from, as the analytics report names it (`home-hero-plans`). */
  place: string;
  children: ReactNode;
}) {
  return (
    <Link
      to={to}
      className={`btn btn--${tone} btn--lg`}
      data-testid={testId}
      data-analytics={`cta_click:${place}`}
    >
      {children}
    </Link>
  );
}
