import type { ReactNode } from 'react';
import { MAIN_CONTENT_ID } from './SkipLink.tsx';

/** The page's <main> landmark, focusable so the skip link and route changes can move focus here. */
export function MainContent({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <main id={MAIN_CONTENT_ID} tabIndex={-1} className={className}>
      {children}
    </main>
  );
}
