// One backup opened in the folder browser (FolderBrowser.tsx): its snapshot's folders as the
// storage node lists them, from `/` (the shares, home folders and exports it holds). Any file or
// folder (and the folder open, but not the whole backup: the contract refuses `/`) can be restored
// after a question: put back in its place, replacing what is there now, or into a new folder
// beside it. The restore is a job like a backup: it shows under Restores.
import { RESTORE_TARGETS, type BackupSession, type RestoreTarget } from '@debesis/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog, DialogFormActions } from '../../../components/dialog/Dialog.tsx';
import { FormAlert } from '../../../components/form/fields.tsx';
import { backupsApi, downloadBackupFile, useBackupFolder } from '../../../workspace/backups-api.ts';
import { useWorkspaceMutation } from '../../../workspace/workspace-resource.ts';
import { formatDateTime } from '../../activity/relative-time.ts';
import { sessionTime } from './BackupHistorySection.tsx';
import { FolderBrowser } from './FolderBrowser.tsx';
import { OperationError, RowAction } from '../resource-parts.tsx';

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
  const date = formatDateTime(new Date(sessionTime(session)), i18n.language);
  const folderName = path.split('/').at(-1) ?? path;
  return (
    <>
      <FolderBrowser
        texts={{
          title: t('browse.title', { date }),
          lead: t('browse.lead', { schedule: scheduleLabel }),
          root: t('browse.root'),
          path: t('browse.path'),
          loadFailed: t('browse.loadFailed'),
        }}
        path={path}
        onPath={setPath}
        folder={folder}
        download={(file, name) => downloadBackupFile(serviceId, session.id, file, name)}
        notice={
          <>
            {asked && (
              <FormAlert tone="success" testId="backup-restore-asked">
                {t('browse.asked', { path: asked })}
              </FormAlert>
            )}
            {path !== '/' && (
              <button
                type="button"
                className="btn btn--secondary btn--small"
                onClick={() => setRestoring({ path, name: folderName })}
                data-testid="backup-browser-restore-folder"
              >
                {t('browse.restoreFolder')}
              </button>
            )}
          </>
        }
        rowAction={(entry, entryPath, testId) => (
          <RowAction
            label={t('browse.restore')}
            target={entry.name}
            onClick={() => setRestoring({ path: entryPath, name: entry.name })}
            testId={`${testId}-restore`}
          />
        )}
        onClose={onClose}
      />
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
