// What the visitor is told of the shared item and of the link: size, last change, when the link
// stops working and how many downloads it has left.
import type { Language, PublicShare } from '@debesis/contract';
import { useTranslation } from 'react-i18next';
import { formatBytes } from '../../lib/format-bytes.ts';
import { formatDateTime } from '../activity/relative-time.ts';

export function ShareFacts({ share, language }: { share: PublicShare; language: Language }) {
  const { t } = useTranslation('sharePage');
  const size = formatBytes(share.size, language);
  const modified = new Date(share.modified_at);
  return (
    <dl className="share-page__facts">
      <dt>{t('size')}</dt>
      <dd data-testid="share-size">{share.size_complete ? size : t('sizeAtLeast', { size })}</dd>
      {!Number.isNaN(modified.getTime()) && (
        <>
          <dt>{t('modified')}</dt>
          <dd data-testid="share-modified">
            <time className="share-page__date" dateTime={share.modified_at}>
              {formatDateTime(modified, language)}
            </time>
          </dd>
        </>
      )}
      <dt>{t('link')}</dt>
      <dd data-testid="share-expiry">
        {share.expires_at ? <ExpiresAt at={share.expires_at} language={language} /> : t('neverExpires')}
      </dd>
      {share.downloads_left !== null && (
        <>
          <dt>{t('downloadsLeft')}</dt>
          <dd data-testid="share-downloads-left">{share.downloads_left}</dd>
        </>
      )}
    </dl>
  );
}

/** "Expires <date>", the date kept on one line (a narrow screen would break `2026-12-05` apart). */
function ExpiresAt({ at, language }: { at: string; language: Language }) {
  const { t } = useTranslation('sharePage');
  const [before = '', after = ''] = t('expiresAt', { date: '\u0000' }).split('\u0000');
  return (
    <>
      {before}
      <time className="share-page__date" dateTime={at}>
        {formatDateTime(new Date(at), language)}
      </time>
      {after}
    </>
  );
}
