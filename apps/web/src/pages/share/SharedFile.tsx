// A shared file (or a file inside a shared folder): its facts, a Download button and, for what
// a browser shows by itself, a View link.
import type { Language, PublicShare } from '@debesis/contract';
import { useTranslation } from 'react-i18next';
import { ShareBreadcrumb } from './ShareBreadcrumb.tsx';
import { ShareFacts } from './ShareFacts.tsx';
import { shareDownloadHref } from './share-api.ts';
import { isViewable, pathNames } from './share-files.ts';

export function SharedFile({
  token,
  share,
  language,
}: {
  token: string;
  share: PublicShare;
  language: Language;
}) {
  const { t } = useTranslation('sharePage');
  const name = pathNames(share.path).at(-1) ?? share.name;
  return (
    <>
      {share.item_type === 'folder' && <ShareBreadcrumb name={share.name} path={share.path} />}
      <header className="share-page__head">
        <p className="share-page__kind">{t('file')}</p>
        <h1 data-testid="share-name">{name}</h1>
      </header>
      <ShareFacts share={share} language={language} />
      <div className="share-page__actions">
        <a
          className="btn btn--primary btn--lg"
          href={shareDownloadHref(token, share.path)}
          download={name}
          data-testid="share-download"
        >
          {t('download')}
        </a>
        {isViewable(name) && (
          <a
            className="btn btn--secondary btn--lg"
            href={shareDownloadHref(token, share.path, true)}
            target="_blank"
            rel="noopener noreferrer"
            data-testid="share-view"
          >
            {t('view')}
          </a>
        )}
      </div>
    </>
  );
}
