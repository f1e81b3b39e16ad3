// A card that shows what the API reports (NFS clients and stats, backup usage, history, a backup's
// folder): a title, a lead, the tab's controls beside them, a notice, its loading and failure (the
// spec's "Failed to load …" with Try again) and, once loaded, its body. Test ids: `<id>` on the
// card, `<id>-load-error` on the failure.
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode, Ref } from 'react';
import { LoadStatus, SectionCard, type AddButton } from './SectionCard.tsx';

export function ReportCard<Data>({
  id,
  title,
  lead,
  actions,
  add,
  notice,
  query,
  failure,
  headingRef,
  className,
  children,
}: {
  id: string;
  title: string;
  lead?: ReactNode;
  /** Beside the title: a filter, a Close button. */
  actions?: ReactNode;
  add?: AddButton;
  /** Above the body, loaded or not: where the reader is, what an action did. */
  notice?: ReactNode;
  query: UseQueryResult<Data>;
  failure: string;
  /** The title, to move focus to when the card opens on the reader's request. */
  headingRef?: Ref<HTMLHeadingElement>;
  className?: string;
  children: (data: Data) => ReactNode;
}) {
  return (
    <SectionCard
      id={id}
      title={title}
      lead={lead}
      actions={actions}
      add={add}
      headingRef={headingRef}
      className={className}
    >
      {notice}
      <LoadStatus id={id} load={query} failure={failure} />
      {query.isSuccess && children(query.data)}
    </SectionCard>
  );
}
