// Small parts of the VPN tab: the online dot, a user's status, and the relative "connected since"
// in the spec's words (§9). Its questions before an action (revoke, kill-all, restart) are the
// tabs' shared ConfirmAction (resource-parts.tsx).
import type { VpnUser } from '@debesis/contract';
import { useTranslation } from 'react-i18next';
import { RelativeTime } from '../kit/RelativeTime.tsx';

export { useNow } from '../kit/RelativeTime.tsx';

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
