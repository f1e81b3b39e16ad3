// One read-only tree a storage node lists, opened in the Backups tab: a backup's snapshot
// (BackupBrowser) or one of the storage's own snapshots (SnapshotBrowser). From `/`, with where
// the reader is as breadcrumbs, folders first, then files with their size and time; a folder
// opens on its name and a file downloads. What else a row or the open folder offers (a backup's
// restore) the caller adds.
import type { BackupBrowseResponse, SnapshotEntry } from '@debesis/contract';
import type { UseQueryResult } from '@tanstack/react-query';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { FormAlert } from '../../components/form/fields.tsx';
import { formatDateTime } from '../activity/relative-time.ts';
import { ReportCard } from './kit/ReportCard.tsx';
import { TableScroll } from './kit/TableScroll.tsx';
import { OperationError, RowAction } from './resource-parts.tsx';
import { formatBytes } from './service-parts.tsx';

/** A path inside the tree, from its root: `/` and names separated by `/`. */
export const childPath = (folder: string, name: string) =>
  folder === '/' ? `/${name}` : `${folder}/${name}`;

/** Folders first, then the rest, each by name as the reader's language sorts. */
export function sortEntries(entries: readonly SnapshotEntry[], language: string): SnapshotEntry[] {
  const collator = new Intl.Collator(language, { numeric: true });
  return [...entries].sort(
    (a, b) => Number(b.type === 'dir') - Number(a.type === 'dir') || collator.compare(a.name, b.name),
  );
}

/** The words of one kind of tree (a backup, a snapshot); the table's own are shared. */
export interface FolderBrowserTexts {
  title: string;
  lead: ReactNode;
  /** The first breadcrumb. */
  root: string;
  /** The breadcrumbs' label. */
  path: string;
  loadFailed: string;
}

export function FolderBrowser({
  texts,
  path,
  onPath,
  folder,
  download,
  notice,
  rowAction,
  onClose,
}: {
  texts: FolderBrowserTexts;
  path: string;
  onPath: (path: string) => void;
  /** The open folder's listing. */
  folder: UseQueryResult<BackupBrowseResponse>;
  /** Saves the file at `path` (named `name`) on the reader's machine. */
  download: (path: string, name: string) => Promise<void>;
  /** Shown under the breadcrumbs. */
  notice?: ReactNode;
  /** More actions of one entry, after its download. */
  rowAction?: (entry: SnapshotEntry, path: string, testId: string) => ReactNode;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation(['backupsTab', 'workspace']);
  const [downloading, setDownloading] = useState<string | null>(null);
  const [downloadError, setDownloadError] = useState<unknown>(null);
  const save = async (name: string) => {
    setDownloading(name);
    setDownloadError(null);
    try {
      await download(childPath(path, name), name);
    } catch (error) {
      setDownloadError(error);
    } finally {
      setDownloading(null);
    }
  };
  const heading = useRef<HTMLHeadingElement>(null);
  // Opened by Browse in a list above: the reader's focus follows it here.
  useEffect(() => heading.current?.focus(), []);
  const names = path === '/' ? [] : path.slice(1).split('/');
  const crumbs = [
    { label: texts.root, path: '/' },
    ...names.map((name, index) => ({ label: name, path: `/${names.slice(0, index + 1).join('/')}` })),
  ];
  const none = <span className="text-muted">{t('common.none')}</span>;
  return (
    <ReportCard
      id="backup-browser"
      className="backup-browser"
      headingRef={heading}
      title={texts.title}
      lead={texts.lead}
      actions={
        <button
          type="button"
          className="btn btn--secondary"
          onClick={onClose}
          data-testid="backup-browser-close"
        >
          {t('browse.close')}
        </button>
      }
      notice={
        <>
          <nav aria-label={texts.path} className="backup-crumbs" data-testid="backup-browser-crumbs">
            <ol>
              {crumbs.map((crumb, index) => (
                <li key={crumb.path}>
                  {index === crumbs.length - 1 ? (
                    <span aria-current="location">{crumb.label}</span>
                  ) : (
                    <button type="button" className="backup-crumbs__link" onClick={() => onPath(crumb.path)}>
                      {crumb.label}
                    </button>
                  )}
                </li>
              ))}
            </ol>
          </nav>
          {downloadError !== null && (
            <OperationError
              error={downloadError}
              failure={t('browse.downloadFailed')}
              testId="backup-download-error"
            />
          )}
          {notice}
        </>
      }
      query={folder}
      failure={texts.loadFailed}
    >
      {(listing) => (
        <>
          {listing.truncated && (
            <FormAlert tone="warning" testId="backup-browser-truncated">
              {t('browse.truncated')}
            </FormAlert>
          )}
          {listing.entries.length === 0 ? (
            <p className="text-muted resource-section__empty" data-testid="backup-browser-empty">
              {t('browse.empty')}
            </p>
          ) : (
            <TableScroll label={texts.title}>
              <table className="data-table backup-table" data-testid="backup-browser-table">
                <thead>
                  <tr>
                    <th scope="col">{t('browse.name')}</th>
                    <th scope="col" className="numeric">
                      {t('browse.size')}
                    </th>
                    <th scope="col">{t('browse.modified')}</th>
                    <th scope="col">
                      <span className="visually-hidden">{t('browse.actions')}</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {sortEntries(listing.entries, i18n.language).map((entry) => {
                    const testId = `backup-entry-${entry.name}`;
                    const at = entry.modified_at ? new Date(entry.modified_at) : null;
                    return (
                      <tr key={entry.name} data-testid={testId} data-type={entry.type}>
                        <th scope="row" className="backup-entry__name">
                          {entry.type === 'dir' ? (
                            <button
                              type="button"
                              className="backup-crumbs__link"
                              onClick={() => onPath(childPath(path, entry.name))}
                              data-testid={`${testId}-open`}
                            >
                              {entry.name}/<span className="visually-hidden"> {t('browse.type_dir')}</span>
                            </button>
                          ) : (
                            <>
                              {entry.name}
                              {entry.type !== 'file' && (
                                <span className="text-muted"> ({t(`browse.type_${entry.type}`)})</span>
                              )}
                            </>
                          )}
                        </th>
                        <td className="numeric">
                          {entry.type === 'file' && entry.size !== null
                            ? formatBytes(entry.size, i18n.language)
                            : none}
                        </td>
                        <td>
                          {at && !Number.isNaN(at.getTime()) ? formatDateTime(at, i18n.language) : none}
                        </td>
                        <td className="backup-entry__actions">
                          {entry.type === 'file' && (
                            <RowAction
                              label={t('browse.download')}
                              target={entry.name}
                              disabled={downloading === entry.name}
                              onClick={() => void save(entry.name)}
                              testId={`${testId}-download`}
                            />
                          )}
                          {rowAction && <> {rowAction(entry, childPath(path, entry.name), testId)}</>}
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </TableScroll>
          )}
        </>
      )}
    </ReportCard>
  );
}
