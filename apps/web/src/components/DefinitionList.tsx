// Facts as a definition list: each a term and its value in a `<div>` of its own, so that a row is
// laid out and styled as one (the cards' grids, the phone's stacked rows). The many "what: value"
// lists of the app (company details, a session, a plan, a payment) are written out once here.
import type { ReactNode } from 'react';

export interface Definition {
  term: ReactNode;
  value: ReactNode;
  /** On the value, where a test reads it. */
  testId?: string | undefined;
  /** On the row (a total set apart). */
  className?: string;
}

export function DefinitionList({
  items,
  className,
  testId,
}: {
  items: readonly Definition[];
  className: string;
  testId?: string;
}) {
  return (
    <dl className={className} data-testid={testId}>
      {items.map((item, index) => (
        // The rows are fixed for a list: their place is their identity.
        <div key={index} className={item.className}>
          <dt>{item.term}</dt>
          <dd data-testid={item.testId}>{item.value}</dd>
        </div>
      ))}
    </dl>
  );
}
