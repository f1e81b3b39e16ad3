// A link's URL as a QR code, to open on a phone. The encoder (uqr) comes only when one is shown.
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { qrPath } from '../VpnPhoneDialog.tsx';

export function ShareLinkQr({ url, testId }: { url: string; testId: string }) {
  const { t } = useTranslation('shareLinksTab');
  const qr = useQuery({
    queryKey: ['share-link-qr', url],
    queryFn: async () => {
      const { encode } = await import('uqr');
      const code = encode(url, { ecc: 'M', border: 4 });
      return { size: code.size, path: qrPath(code.data) };
    },
    staleTime: Infinity,
  });
  if (!qr.data) return null;
  return (
    <svg
      viewBox={`0 0 ${qr.data.size} ${qr.data.size}`}
      width={200}
      height={200}
      role="img"
      aria-label={t('qrTitle')}
      data-testid={testId}
      shapeRendering="crispEdges"
    >
      <rect width="100%" height="100%" fill="#fff" />
      <path d={qr.data.path} fill="#000" />
    </svg>
  );
}
