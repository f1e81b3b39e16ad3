// A card that shows what the API reports (NFS clients and stats, backup usage, history, a backup's
// folder): a title, a lead, the tab's controls beside them, a notice, its loading and failure (the
// spec's "Failed to load …" with Try again) and, once loaded, its body. Test ids: `<id>` on the
// card, `<id>-load-error` on the failure.
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode, Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { FormAlert } from '../../../components/form/fields.tsx';
import '../../../i18n/workspace-messages.ts';

export function ReportCard<Data>({
  id,
  title,
  lead,
  actions,
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
  /** Above the body, loaded or not: where the reader is, what an action did. */
  notice?: ReactNode;
  query: UseQueryResult<Data>;
  failure: string;
  /** The title, to move focus to when the card opens on the reader's request. */
  headingRef?: Ref<HTMLHeadingElement>;
  className?: string;
  children: (data: Data) => ReactNode;
}) {
  const { t } = useTranslation('workspace');
  return (
    <section
      className={className ? `card resource-section ${className}` : 'card resource-section'}
      aria-labelledby={`${id}-title`}
      data-testid={id}
    >
      <div className="resource-section__head">
        <div>
          <h2
            id={`${id}-title`}
            className="resource-section__title"
            ref={headingRef}
            tabIndex={headingRef ? -1 : undefined}
          >
            {title}
          </h2>
          {lead && <p className="text-muted resource-section__lead">{lead}</p>}
        </div>
        {actions}
      </div>
      {notice}
      {query.isPending && (
        <p className="text-muted" role="status">
          {t('resource.loading')}
        </p>
      )}
      {query.isError && (
        <FormAlert tone="error" testId={`${id}-load-error`}>
          {failure}{' '}
          <button type="button" className="btn btn--ghost" onClick={() => void query.refetch()}>
            {t('resource.retry')}
          </button>
        </FormAlert>
      )}
      {query.isSuccess && children(query.data)}
    </section>
  );
}
