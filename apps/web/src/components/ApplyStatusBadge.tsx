// Whether the node has applied a resource's latest change (ARCHITECTURE "Desired state and the
// agent"): "Applying…" until the agent confirms, then applied, or failed with the node's reason.
// ApplySummary says the same for a whole list, politely announced as it changes.
import type { ResourceApplyStatus } from '@debesis/contract';
import { useTranslation } from 'react-i18next';
import '../i18n/workspace-messages.ts';
import './apply-status.css';

const TONES: Record<ResourceApplyStatus, string> = {
  applied: 'success',
  applying: 'info',
  failed: 'danger',
};

export function ApplyStatusBadge({
  status,
  error,
  testId,
}: {
  status: ResourceApplyStatus;
  /** The node's reason, shown when the status is failed. */
  error?: string | null;
  testId?: string;
}) {
  const { t } = useTranslation('workspace');
  return (
    <span className="apply-status">
      <span className={`badge badge--${TONES[status]}`} data-testid={testId} data-apply-status={status}>
        {status === 'applying' && <span className="apply-status__pulse" aria-hidden="true" />}
        {t(`applyStatus.${status}`)}
      </span>
      {status === 'failed' && error && (
        <span className="apply-status__error" data-testid={testId && `${testId}-error`}>
          {error}
        </span>
      )}
    </span>
  );
}

/** One line for a list: how many changes are still applying or failed, else that all are applied. */
export function ApplySummary({
  statuses,
  testId,
}: {
  statuses: readonly ResourceApplyStatus[];
  testId?: string;
}) {
  const { t } = useTranslation('workspace');
  const applying = statuses.filter((status) => status === 'applying').length;
  const failed = statuses.filter((status) => status === 'failed').length;
  let text = '';
  if (applying > 0) text = t('applyStatus.summaryApplying', { count: applying });
  else if (failed > 0) text = t('applyStatus.summaryFailed', { count: failed });
  else if (statuses.length > 0) text = t('applyStatus.summaryApplied');
  return (
    <p className="apply-summary text-muted" role="status" data-testid={testId}>
      {text}
    </p>
  );
}
