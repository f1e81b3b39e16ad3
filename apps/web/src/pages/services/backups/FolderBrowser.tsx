// One read-only tree a storage node lists, opened in the Backups tab: a backup's snapshot
// (BackupBrowser) or one of the storage's own snapshots (SnapshotBrowser). From `/`, with where
// the reader is as breadcrumbs, folders first, then files with their size and time; a folder
// opens on its name and a file downloads. What else a row or the open folder offers (a backup's
// restore) the caller adds.
import type { BackupBrowseResponse, SnapshotEntry } from '@debesis/contract';
import type { UseQueryResult } from '@tanstack/react-query';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { FormAlert } from '../../../components/form/fields.tsx';
import { formatDateTime } from '../../activity/relative-time.ts';
import { ReportCard } from '../kit/ReportCard.tsx';
import { DataTable } from '../kit/DataTable.tsx';
import { PathBreadcrumbs, pathNames } from '../kit/PathBreadcrumbs.tsx';
import { OperationError, RowAction } from '../resource-parts.tsx';
import { formatBytes } from '../service-parts.tsx';

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

const entryTestId = (entry: SnapshotEntry): string => `backup-entry-${entry.name}`;

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
          <PathBreadcrumbs
            label={texts.path}
            root={texts.root}
            names={pathNames(path)}
            onOpen={(names) => onPath(`/${names.join('/')}`)}
            testId="backup-browser-crumbs"
          />
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
          <DataTable
            label={texts.title}
            className="backup-table"
            testId="backup-browser-table"
            empty={{ text: t('browse.empty'), testId: 'backup-browser-empty' }}
            rows={sortEntries(listing.entries, i18n.language)}
            rowKey={(entry) => entry.name}
            rowData={(entry) => ({ 'data-testid': entryTestId(entry), 'data-type': entry.type })}
            columns={[
              {
                title: t('browse.name'),
                className: 'backup-entry__name',
                cell: (entry) =>
                  entry.type === 'dir' ? (
                    <button
                      type="button"
                      className="folder-link"
                      onClick={() => onPath(childPath(path, entry.name))}
                      data-testid={`${entryTestId(entry)}-open`}
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
                  ),
              },
              {
                title: t('browse.size'),
                numeric: true,
                cell: (entry) =>
                  entry.type === 'file' && entry.size !== null
                    ? formatBytes(entry.size, i18n.language)
                    : none,
              },
              {
                title: t('browse.modified'),
                cell: (entry) => {
                  const at = entry.modified_at ? new Date(entry.modified_at) : null;
                  return at && !Number.isNaN(at.getTime()) ? formatDateTime(at, i18n.language) : none;
                },
              },
              {
                title: t('browse.actions'),
                hideTitle: true,
                className: 'backup-entry__actions',
                cell: (entry) => (
                  <>
                    {entry.type === 'file' && (
                      <RowAction
                        label={t('browse.download')}
                        target={entry.name}
                        disabled={downloading === entry.name}
                        onClick={() => void save(entry.name)}
                        testId={`${entryTestId(entry)}-download`}
                      />
                    )}
                    {rowAction && <> {rowAction(entry, childPath(path, entry.name), entryTestId(entry))}</>}
                  </>
                ),
              },
            ]}
          />
        </>
      )}
    </ReportCard>
  );
}
