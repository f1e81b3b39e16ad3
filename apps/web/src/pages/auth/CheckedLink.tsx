// A mailed link's token (email verification, email change) checked once, then how it went: the
// page says what is under way while the server checks it, then the outcome with its message and
// the way on. Test ids: `<name>-pending`, `<name>-success`, `<name>-failed`.
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { AuthOutcome, AuthPending } from './AuthCard.tsx';

/** A query rather than an effect: one request per token, however often the page renders. */
export function useLinkCheck<Data>(queryKey: readonly unknown[], request: () => Promise<Data>) {
  return useQuery({ queryKey, queryFn: request, retry: false, staleTime: Infinity, gcTime: Infinity });
}

interface Outcome {
  title: string;
  message: ReactNode;
  messageTestId: string;
  /** What the visitor can do next. */
  next: ReactNode;
}

export function CheckedLink<Data>({
  check,
  name,
  titleId,
  checkingTitle,
  success,
  failure,
}: {
  check: UseQueryResult<Data>;
  name: string;
  titleId: string;
  checkingTitle: string;
  success: (data: Data) => Outcome;
  failure: (error: unknown) => Outcome;
}) {
  if (check.isPending)
    return <AuthPending titleId={titleId} title={checkingTitle} testId={`${name}-pending`} />;
  const outcome = check.isSuccess ? success(check.data) : failure(check.error);
  return (
    <AuthOutcome
      titleId={titleId}
      title={outcome.title}
      tone={check.isSuccess ? 'success' : 'error'}
      message={outcome.message}
      messageTestId={outcome.messageTestId}
      testId={check.isSuccess ? `${name}-success` : `${name}-failed`}
    >
      {outcome.next}
    </AuthOutcome>
  );
}
