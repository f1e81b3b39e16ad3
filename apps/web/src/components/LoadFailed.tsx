// What the page could not load, said at once, with the button that asks again: every list,
// summary and form that reads from the API shows a failed load this one way.
import type { ReactNode } from 'react';
import { FormAlert } from './form/fields.tsx';

export function LoadFailed({
  retryLabel,
  query,
  testId,
  children,
}: {
  retryLabel: string;
  /** The query to run again; null when asking again cannot help (the answer itself was wrong). */
  query: { refetch: () => unknown } | null;
  testId: string;
  /** What could not be loaded. */
  children: ReactNode;
}) {
  return (
    <FormAlert tone="error" testId={testId}>
      {children}{' '}
      {query && (
        <button type="button" className="btn btn--ghost" onClick={() => void query.refetch()}>
          {retryLabel}
        </button>
      )}
    </FormAlert>
  );
}
