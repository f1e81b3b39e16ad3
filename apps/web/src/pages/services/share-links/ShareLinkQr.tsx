// A link's URL as a QR code, to open on a phone.
import { useTranslation } from 'react-i18next';
import { QrCode } from '../kit/QrCode.tsx';

export function ShareLinkQr({ url, testId }: { url: string; testId: string }) {
  const { t } = useTranslation('shareLinksTab');
  return <QrCode value={url} label={t('qrTitle')} testId={testId} />;
}
