// The card every workspace section stands in (reports, resource lists, VPN sessions and traffic):
// its title, with a count beside it when the section has one, a lead, the section's controls
// beside them, then its body. Test ids: `<id>` on the card, `<id>-counter` on the count; the
// title (`<id>-title`) names the card; a section that adds things has its primary Add button there. And the loading line and the spec's "Failed to load …" with
// Try again, the same in every section that loads what it shows.
import type { ReactNode, Ref } from 'react';
import { useTranslation } from 'react-i18next';
import '../../../i18n/workspace-messages.ts';
import { LoadFailed } from '../../../components/LoadFailed.tsx';

export interface AddButton {
  label: string;
  onClick: () => void;
  disabled?: boolean;
  testId: string;
}

export function SectionCard({
  id,
  title,
  counter,
  lead,
  actions,
  add,
  headingRef,
  className,
  children,
}: {
  id: string;
  title: string;
  /** Beside the title: how many there are (0 included); none when undefined. */
  counter?: ReactNode;
  lead?: ReactNode;
  /** Beside the title: an Add button, a filter, a Close button. */
  actions?: ReactNode;
  /** The section's Add button, after `actions`. */
  add?: AddButton;
  /** The title, to move focus to when the card opens on the reader's request. */
  headingRef?: Ref<HTMLHeadingElement>;
  className?: string;
  children: ReactNode;
}) {
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
            {counter !== undefined && (
              <span className="resource-section__counter" data-testid={`${id}-counter`}>
                {counter}
              </span>
            )}
          </h2>
          {lead && <p className="text-muted resource-section__lead">{lead}</p>}
        </div>
        {actions}
        {add && (
          <button
            type="button"
            className="btn btn--primary"
            onClick={add.onClick}
            disabled={add.disabled}
            data-testid={add.testId}
          >
            {add.label}
          </button>
        )}
      </div>
      {children}
    </section>
  );
}

/** While loading, "Loading…"; after a failure, `failure` with Try again (test id `<id>-load-error`). */
export function LoadStatus({
  id,
  load,
  failure,
}: {
  id: string;
  /** The query itself, not a copy: spreading it would subscribe the view to all its fields. */
  load: { isPending: boolean; isError: boolean; refetch: () => unknown };
  failure: string;
}) {
  const { t } = useTranslation('workspace');
  return (
    <>
      {load.isPending && (
        <p className="text-muted" role="status">
          {t('resource.loading')}
        </p>
      )}
      {load.isError && (
        <LoadFailed testId={`${id}-load-error`} query={load} retryLabel={t('resource.retry')}>
          {failure}
        </LoadFailed>
      )}
    </>
  );
}
