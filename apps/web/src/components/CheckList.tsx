// What one gets, as a list of ticked items (the home page's hero and "included", a solution's
// features). `role="list"`: the list style is removed, and Safari would no longer call it a list.
import type { ReactNode } from 'react';
import { CheckIcon } from './icons.tsx';

export function CheckList({
  className,
  items,
}: {
  /** Placement on the page, next to `check-list`. */
  className?: string;
  items: ReadonlyArray<{ key: string; text: ReactNode }>;
}) {
  return (
    <ul className={className ? `check-list ${className}` : 'check-list'} role="list">
      {items.map((item) => (
        <li key={item.key}>
          <CheckIcon />
          {item.text}
        </li>
      ))}
    </ul>
  );
}
