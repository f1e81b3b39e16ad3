// "Set up a phone" (beyond the spec, issue 15): a QR code of a one-time link to the user's .ovpn
// (POST users/{userId}/config/link), which lives a few minutes and works once. The phone scans it,
// downloads the file and imports it into OpenVPN Connect. The QR encoder (uqr) is fetched only
// when this dialog opens; the code is drawn here as one SVG path, so no markup comes from outside.
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/dialog/Dialog.tsx';
import { FormAlert } from '../../../components/form/fields.tsx';
import { formatDateTime } from '../../activity/relative-time.ts';
import { vpnApi } from '../../../workspace/vpn-api.ts';
import { OperationError } from '../resource-parts.tsx';

/** The dark modules of a QR matrix as one path, a 1×1 square each (the quiet zone included). */
export function qrPath(modules: readonly (readonly boolean[])[]): string {
  const parts: string[] = [];
  modules.forEach((row, y) =>
    row.forEach((dark, x) => {
      if (dark) parts.push(`M${x} ${y}h1v1h-1z`);
    }),
  );
  return parts.join('');
}

async function makeLink(serviceId: string, userId: string) {
  const [{ encode }, link] = await Promise.all([import('uqr'), vpnApi.configLink(serviceId, userId)]);
  // Medium correction: a phone camera reads it off a screen with glare; the quiet zone of 4 the standard asks.
  const qr = encode(link.url, { ecc: 'M', border: 4 });
  return { ...link, size: qr.size, path: qrPath(qr.data) };
}

/** True once `at` has passed (re-rendering then), false before; a new `at` starts again. */
function usePassed(at: string | undefined): boolean {
  const [passed, setPassed] = useState<string | null>(null);
  useEffect(() => {
    if (at === undefined) return;
    const timer = setTimeout(() => setPassed(at), Math.max(0, new Date(at).getTime() - Date.now()));
    return () => clearTimeout(timer);
  }, [at]);
  return at !== undefined && passed === at;
}

export function VpnPhoneDialog({
  serviceId,
  user,
  onClose,
}: {
  serviceId: string;
  user: { id: string; username: string };
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation('vpnTab');
  // Each "new link" is a new one-time link: a POST, never served from the cache.
  const [attempt, setAttempt] = useState(0);
  const link = useQuery({
    queryKey: ['vpn-config-link', serviceId, user.id, attempt],
    queryFn: () => makeLink(serviceId, user.id),
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
  });
  const expired = usePassed(link.data?.expires_at);
  return (
    <Dialog title={t('vpn.phoneTitle', { name: user.username })} onClose={onClose} testId="vpn-phone-dialog">
      <ol className="vpn-phone__steps">
        <li>{t('vpn.phoneStepInstall')}</li>
        <li>{t('vpn.phoneStepScan')}</li>
        <li>{t('vpn.phoneStepImport', { name: user.username })}</li>
      </ol>
      {link.isPending && (
        <p className="text-muted" role="status" data-testid="vpn-phone-loading">
          {t('vpn.phoneLoading')}
        </p>
      )}
      {link.isError && (
        <OperationError error={link.error} failure={t('vpn.linkFailed')} testId="vpn-phone-error" />
      )}
      {link.data && !expired && (
        <figure className="vpn-phone__code">
          <svg
            viewBox={`0 0 ${link.data.size} ${link.data.size}`}
            role="img"
            aria-label={t('vpn.phoneQrLabel', { name: user.username })}
            shapeRendering="crispEdges"
            data-testid="vpn-phone-qr"
            data-url={link.data.url}
          >
            <rect width={link.data.size} height={link.data.size} fill="#fff" />
            <path d={link.data.path} fill="#000" />
          </svg>
          <figcaption data-testid="vpn-phone-expires">
            {t('vpn.phoneExpires', { time: formatDateTime(new Date(link.data.expires_at), i18n.language) })}
          </figcaption>
        </figure>
      )}
      {link.data && expired && (
        <FormAlert tone="warning" testId="vpn-phone-expired">
          {t('vpn.phoneExpired')}
        </FormAlert>
      )}
      <div className="button-row dialog__actions">
        {(expired || link.isError) && (
          <button
            type="button"
            className="btn btn--primary"
            onClick={() => setAttempt((n) => n + 1)}
            data-testid="vpn-phone-renew"
          >
            {t('vpn.phoneRenew')}
          </button>
        )}
        <button type="button" className="btn btn--ghost" onClick={onClose}>
          {t('vpn.close')}
        </button>
      </div>
    </Dialog>
  );
}
