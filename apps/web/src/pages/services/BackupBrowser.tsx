// One backup opened: its snapshot's folders as the storage node lists them, from `/` (the shares,
// home folders and exports it holds), with where the reader is as breadcrumbs, folders first, then
// files with their size and time; a folder opens on its name. Any file or folder (and the folder
// open, but not the whole backup: the contract refuses `/`) can be restored after a question:
// put back in its place, replacing what is there now, or into a new folder beside it. The
// restore is a job like a backup: it shows under Restores.
import {
  RESTORE_TARGETS,
  type BackupSession,
  type RestoreTarget,
  type SnapshotEntry,
} from '@debesis/contract';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog, DialogFormActions } from '../../components/dialog/Dialog.tsx';
import { FormAlert } from '../../components/form/fields.tsx';
import { backupsApi, downloadBackupFile, useBackupFolder } from '../../workspace/backups-api.ts';
import { useWorkspaceMutation } from '../../workspace/workspace-resource.ts';
import { formatDateTime } from '../activity/relative-time.ts';
import { sessionTime } from './BackupHistorySection.tsx';
import { ReportCard } from './kit/ReportCard.tsx';
import { TableScroll } from './kit/TableScroll.tsx';
import { OperationError, RowAction } from './resource-parts.tsx';
import { formatBytes } from './service-parts.tsx';

/** A path inside the snapshot, from its root: `/` and names separated by `/`. */
export const childPath = (folder: string, name: string) =>
  folder === '/' ? `/${name}` : `${folder}/${name}`;

/** Folders first, then the rest, each by name as the reader's language sorts. */
export function sortEntries(entries: readonly SnapshotEntry[], language: string): SnapshotEntry[] {
  const collator = new Intl.Collator(language, { numeric: true });
  return [...entries].sort(
    (a, b) => Number(b.type === 'dir') - Number(a.type === 'dir') || collator.compare(a.name, b.name),
  );
}

interface RestoreChoice {
  path: string;
  name: string;
}

export function BackupBrowser({
  serviceId,
  session,
  scheduleLabel,
  onClose,
}: {
  serviceId: string;
  session: BackupSession;
  /** Its schedule's name as the reader sees it. */
  scheduleLabel: string;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation(['backupsTab', 'workspace']);
  const [path, setPath] = useState('/');
  const folder = useBackupFolder(serviceId, session.id, path);
  const [restoring, setRestoring] = useState<RestoreChoice | null>(null);
  const [asked, setAsked] = useState<string | null>(null);
  const [downloading, setDownloading] = useState<string | null>(null);
  const [downloadError, setDownloadError] = useState<unknown>(null);
  const download = async (name: string) => {
    setDownloading(name);
    setDownloadError(null);
    try {
      await downloadBackupFile(serviceId, session.id, childPath(path, name), name);
    } catch (error) {
      setDownloadError(error);
    } finally {
      setDownloading(null);
    }
  };
  const heading = useRef<HTMLHeadingElement>(null);
  // Opened by Browse in the history above: the reader's focus follows it here.
  useEffect(() => heading.current?.focus(), []);
  const date = formatDateTime(new Date(sessionTime(session)), i18n.language);
  const names = path === '/' ? [] : path.slice(1).split('/');
  const crumbs = [
    { label: t('browse.root'), path: '/' },
    ...names.map((name, index) => ({ label: name, path: `/${names.slice(0, index + 1).join('/')}` })),
  ];
  const none = <span className="text-muted">{t('common.none')}</span>;
  return (
    <>
      <ReportCard
        id="backup-browser"
        className="backup-browser"
        headingRef={heading}
        title={t('browse.title', { date })}
        lead={t('browse.lead', { schedule: scheduleLabel })}
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
            <nav aria-label={t('browse.path')} className="backup-crumbs" data-testid="backup-browser-crumbs">
              <ol>
                {crumbs.map((crumb, index) => (
                  <li key={crumb.path}>
                    {index === crumbs.length - 1 ? (
                      <span aria-current="location">{crumb.label}</span>
                    ) : (
                      <button
                        type="button"
                        className="backup-crumbs__link"
                        onClick={() => setPath(crumb.path)}
                      >
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
            {asked && (
              <FormAlert tone="success" testId="backup-restore-asked">
                {t('browse.asked', { path: asked })}
              </FormAlert>
            )}
            {path !== '/' && (
              <button
                type="button"
                className="btn btn--secondary btn--small"
                onClick={() => setRestoring({ path, name: names.at(-1) ?? path })}
                data-testid="backup-browser-restore-folder"
              >
                {t('browse.restoreFolder')}
              </button>
            )}
          </>
        }
        query={folder}
        failure={t('browse.loadFailed')}
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
              <TableScroll label={t('browse.title', { date })}>
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
                                onClick={() => setPath(childPath(path, entry.name))}
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
                                onClick={() => void download(entry.name)}
                                testId={`${testId}-download`}
                              />
                            )}{' '}
                            <RowAction
                              label={t('browse.restore')}
                              target={entry.name}
                              onClick={() =>
                                setRestoring({ path: childPath(path, entry.name), name: entry.name })
                              }
                              testId={`${testId}-restore`}
                            />
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
      {restoring && (
        <RestoreDialog
          serviceId={serviceId}
          sessionId={session.id}
          date={date}
          choice={restoring}
          onDone={setAsked}
          onClose={() => setRestoring(null)}
        />
      )}
    </>
  );
}

/** "Restore X": where to (its place, or a new folder beside it), the restore behind the button. */
function RestoreDialog({
  serviceId,
  sessionId,
  date,
  choice,
  onDone,
  onClose,
}: {
  serviceId: string;
  sessionId: string;
  date: string;
  choice: RestoreChoice;
  onDone: (path: string) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation(['backupsTab', 'workspace']);
  // The contract's default: back in its place; the words say it replaces what is there.
  const [target, setTarget] = useState<RestoreTarget>('original');
  const restore = useWorkspaceMutation(
    () => backupsApi.restore(serviceId, sessionId, { path: choice.path, target }),
    () => {
      onDone(choice.path);
      onClose();
    },
  );
  return (
    <Dialog
      title={t('restore.title', { name: choice.name })}
      description={t('restore.lead', { date })}
      onClose={onClose}
      testId="backup-restore-dialog"
    >
      <form
        className="form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          restore.mutate(undefined);
        }}
      >
        {restore.isError && (
          <OperationError error={restore.error} failure={t('restore.failed')} testId="backup-restore-error" />
        )}
        <fieldset className="fieldset">
          <legend className="field__label">{t('restore.where')}</legend>
          <div className="backup-choices backup-choices--stack">
            {RESTORE_TARGETS.map((value) => (
              <label key={value} className="backup-choice">
                <input
                  type="radio"
                  name="backup-restore-target"
                  value={value}
                  checked={target === value}
                  onChange={() => setTarget(value)}
                  data-testid={`backup-restore-target-${value}`}
                />
                <span>{t(`restore.${value}`)}</span>
              </label>
            ))}
          </div>
          {target === 'folder' && <p className="field__hint">{t('restore.folderHint')}</p>}
        </fieldset>
        <DialogFormActions
          submitLabel={t('restore.confirm')}
          busyLabel={t('restore.busy')}
          busy={restore.isPending}
          onCancel={onClose}
          testId="backup-restore-submit"
        />
      </form>
    </Dialog>
  );
}
