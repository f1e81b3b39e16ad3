// The entries of a shared folder: a folder opens (its whole row is the link), a file downloads,
// and what the browser shows by itself can be viewed too.
import type { Language, StorageEntry } from '@debesis/contract';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { FolderIcon } from '../../components/icons.tsx';
import { formatBytes } from '../../lib/format-bytes.ts';
import { formatDateTime } from '../activity/relative-time.ts';
import { shareDownloadHref } from './share-api.ts';
import { childPath, isViewable, placeSearch } from './share-files.ts';

interface ShareEntriesProps {
  token: string;
  /** The folder's path inside the link. */
  folder: string;
  entries: readonly StorageEntry[];
  language: Language;
}

export function ShareEntries({ token, folder, entries, language }: ShareEntriesProps) {
  const { t } = useTranslation('sharePage');
  if (entries.length === 0) return <p className="text-muted">{t('empty')}</p>;
  return (
    <div className="share-page__table-wrap">
      <table className="share-page__table">
        <thead>
          <tr>
            <th scope="col">{t('name')}</th>
            <th scope="col" className="share-page__numeric">
              {t('size')}
            </th>
            <th scope="col" className="share-page__wide">
              {t('modified')}
            </th>
            <th scope="col">
              <span className="visually-hidden">{t('actions')}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {entries.map((entry) => (
            <EntryRow
              key={entry.name}
              token={token}
              path={childPath(folder, entry.name)}
              entry={entry}
              language={language}
            />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function EntryRow({
  token,
  path,
  entry,
  language,
}: {
  token: string;
  path: string;
  entry: StorageEntry;
  language: Language;
}) {
  const { t } = useTranslation('sharePage');
  const modified = new Date(entry.modified_at);
  const isFolder = entry.type === 'folder';
  return (
    <tr
      className={isFolder ? 'share-page__row--folder' : undefined}
      data-testid={`share-entry-${entry.name}`}
    >
      <td className="share-page__entry-name">
        {isFolder ? (
          <Link to={{ search: placeSearch(path) }} className="share-page__open">
            <FolderIcon />
            {entry.name}
          </Link>
        ) : (
          <a
            href={shareDownloadHref(token, path)}
            download={entry.name}
            data-testid={`share-entry-download-${entry.name}`}
          >
            {entry.name}
          </a>
        )}
      </td>
      <td className="share-page__numeric">{isFolder ? '' : formatBytes(entry.size, language)}</td>
      <td className="share-page__wide">
        {Number.isNaN(modified.getTime()) ? '' : formatDateTime(modified, language)}
      </td>
      <td className="share-page__entry-actions">
        {!isFolder && isViewable(entry.name) && (
          <a
            href={shareDownloadHref(token, path, true)}
            target="_blank"
            rel="noopener noreferrer"
            aria-label={t('viewNamed', { name: entry.name })}
            data-testid={`share-entry-view-${entry.name}`}
          >
            {t('viewShort')}
          </a>
        )}
      </td>
    </tr>
  );
}
