// A wide table's own scroll box (kit/data-table.css): on a phone the table scrolls inside it, never
// the page. A named region that takes focus, so a keyboard can scroll it too, even when the table
// holds nothing else to focus (WCAG 2.1.1; axe `scrollable-region-focusable`).
import type { ReactNode } from 'react';
import './data-table.css';

export function TableScroll({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="data-table__scroll" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}
