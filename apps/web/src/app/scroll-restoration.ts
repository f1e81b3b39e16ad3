// Where a page is scrolled to after a navigation, as React Router's <ScrollRestoration> did before
// the app left its data router (route-tree.tsx says why): back and forward, and a reload, return
// to where that history entry was left; a link to `#id` shows that element; any other navigation
// starts at the top. Positions are kept by history entry (the location's key) for the tab's
// lifetime in sessionStorage, so a reload finds them.
import { useEffect, useLayoutEffect } from 'react';
import { useLocation } from 'react-router';

const STORAGE_KEY = 'debesis.scroll-positions';

let positions: Record<string, number> | undefined;
let currentKey = '';

function savedPositions(): Record<string, number> {
  if (!positions) {
    try {
      positions = JSON.parse(window.sessionStorage.getItem(STORAGE_KEY) ?? '{}') as Record<string, number>;
    } catch {
      positions = {};
    }
  }
  return positions;
}

/** The element a `#id` names, if the id decodes and is on the page. */
function hashTarget(hash: string): HTMLElement | null {
  try {
    return hash ? document.getElementById(decodeURIComponent(hash.slice(1))) : null;
  } catch {
    return null;
  }
}

export function useScrollRestoration(): void {
  const { key, hash } = useLocation();

  useEffect(() => {
    // The browser's own restoration would scroll before the page's code has rendered it.
    window.history.scrollRestoration = 'manual';
    // Recorded as the visitor scrolls: by the time a navigation renders the next page, the
    // previous one's DOM and its scroll position are gone.
    const onScroll = () => {
      savedPositions()[currentKey] = window.scrollY;
    };
    const onPageHide = () => {
      try {
        window.sessionStorage.setItem(STORAGE_KEY, JSON.stringify(savedPositions()));
      } catch {
        // Not storable: a reload starts at the top.
      }
      window.history.scrollRestoration = 'auto';
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    window.addEventListener('pagehide', onPageHide);
    return () => {
      window.removeEventListener('scroll', onScroll);
      window.removeEventListener('pagehide', onPageHide);
      window.history.scrollRestoration = 'auto';
    };
  }, []);

  // A layout effect: it runs once the new page is in the DOM, before the browser paints it.
  useLayoutEffect(() => {
    currentKey = key;
    const saved = savedPositions()[key];
    const target = hashTarget(hash);
    if (saved !== undefined) window.scrollTo(0, saved);
    else if (target) target.scrollIntoView();
    else window.scrollTo(0, 0);
  }, [key, hash]);
}
