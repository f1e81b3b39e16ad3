// Small parts of the VPN tab: a question before an action that cannot be taken back (revoke,
// kill-all, restart) with the action behind its button, the online dot, a user's status, and the
// relative "connected since" in the spec's words (§9).
import type { VpnUser } from '@debesis/contract';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/dialog/Dialog.tsx';
import { useWorkspaceMutation } from '../../workspace/workspace-resource.ts';
import { RelativeTime } from './kit/RelativeTime.tsx';
import { OperationError } from './resource-parts.tsx';

export { useNow } from './kit/RelativeTime.tsx';

/** "Revoke X?" with the action running behind the confirm button, its failure in the dialog. */
export function ConfirmAction<Result>({
  title,
  body,
  confirmLabel,
  busyLabel,
  failure,
  run,
  onDone,
  onClose,
  testId,
}: {
  title: string;
  body: ReactNode;
  confirmLabel: string;
  busyLabel: string;
  failure: string;
  run: () => Promise<Result>;
  onDone: (result: Result) => void;
  onClose: () => void;
  testId: string;
}) {
  const action = useWorkspaceMutation(run, (result) => {
    onDone(result);
    onClose();
  });
  return (
    <ConfirmDialog
      title={title}
      body={body}
      confirmLabel={confirmLabel}
      busyLabel={busyLabel}
      busy={action.isPending}
      error={
        action.isError && <OperationError error={action.error} failure={failure} testId={`${testId}-error`} />
      }
      onConfirm={() => action.mutate(undefined)}
      onCancel={onClose}
      testId={testId}
    />
  );
}

export type VpnUserStatus = 'enabled' | 'disabled' | 'revoked';

/**
 * Disabled wins (the user cannot connect at all); revoked: its last configuration was revoked, so
 * only a configuration downloaded since then connects.
 */
export function vpnUserStatus(user: VpnUser): VpnUserStatus {
  if (!user.enabled) return 'disabled';
  return user.revoked_at === null ? 'enabled' : 'revoked';
}

const STATUS_TONE: Record<VpnUserStatus, string> = {
  enabled: 'badge--success',
  disabled: 'badge--warning',
  revoked: 'badge--danger',
};

export function VpnStatusBadge({ user }: { user: VpnUser }) {
  const { t } = useTranslation('vpnTab');
  const status = vpnUserStatus(user);
  return (
    <span className={`badge ${STATUS_TONE[status]}`} data-testid={`vpn-user-${user.username}-status`}>
      {t(`vpn.status_${status}`)}
    </span>
  );
}

/** A dot and a word: the colour is never the only sign. */
export function OnlineDot({ online, testId }: { online: boolean; testId: string }) {
  const { t } = useTranslation('vpnTab');
  return (
    <span className="vpn-online" data-testid={testId} data-online={online}>
      <span className={`vpn-online__dot${online ? ' vpn-online__dot--on' : ''}`} aria-hidden="true" />
      {online ? t('vpn.online') : t('vpn.offline')}
    </span>
  );
}

/** "5 minutes ago", the full date and time on hover and for a screen reader's detail. */
export function Since({ at, now }: { at: string; now: Date }) {
  const { t } = useTranslation('vpnTab');
  return <RelativeTime at={at} now={now} justNow={t('vpn.justNow')} />;
}
