// A shared folder, at the place the visitor walked to: its facts, where it is, its entries and a
// .zip of all of it.
import type { Language, PublicShare } from '@debesis/contract';
import { useTranslation } from 'react-i18next';
import { ShareBreadcrumb } from './ShareBreadcrumb.tsx';
import { ShareEntries } from './ShareEntries.tsx';
import { ShareFacts } from './ShareFacts.tsx';
import { shareDownloadHref } from './share-api.ts';
import { pathNames } from './share-files.ts';

export function SharedFolder({
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
      <ShareBreadcrumb name={share.name} path={share.path} />
      <header className="share-page__head">
        <p className="share-page__kind">{t('folder')}</p>
        <h1 data-testid="share-name">{name}</h1>
      </header>
      <ShareFacts share={share} language={language} />
      <div className="share-page__actions">
        <a
          className="btn btn--primary btn--lg"
          href={shareDownloadHref(token, share.path)}
          download={`${name}.zip`}
          data-testid="share-download"
        >
          {t('downloadZip')}
        </a>
      </div>
      <ShareEntries token={token} folder={share.path} entries={share.entries} language={language} />
      {share.truncated && (
        <p className="share-page__note" role="note" data-testid="share-truncated">
          {t('truncated', { count: share.entries.length })}
        </p>
      )}
    </>
  );
}
