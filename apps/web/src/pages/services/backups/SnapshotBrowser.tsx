// One of the storage's own snapshots opened in the folder browser (FolderBrowser.tsx): read-only,
// the storage as it was when it was taken. No restore here: a file comes back by downloading it,
// or from Windows' Previous Versions, which the card says.
import type { Snapshot } from '@debesis/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { downloadSnapshotFile, useSnapshotFolder } from '../../../workspace/snapshots-api.ts';
import { formatDateTime } from '../../activity/relative-time.ts';
import { FolderBrowser } from './FolderBrowser.tsx';

export function SnapshotBrowser({
  serviceId,
  snapshot,
  onClose,
}: {
  serviceId: string;
  snapshot: Snapshot;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation(['backupsTab', 'workspace']);
  const [path, setPath] = useState('/');
  const folder = useSnapshotFolder(serviceId, snapshot.name, path);
  const date = formatDateTime(new Date(snapshot.taken_at), i18n.language);
  return (
    <FolderBrowser
      texts={{
        title: t('snapshotBrowse.title', { date }),
        lead: t('snapshotBrowse.lead'),
        root: t('snapshotBrowse.root'),
        path: t('snapshotBrowse.path'),
        loadFailed: t('snapshotBrowse.loadFailed'),
      }}
      path={path}
      onPath={setPath}
      folder={folder}
      download={(file, name) => downloadSnapshotFile(serviceId, snapshot.name, file, name)}
      onClose={onClose}
    />
  );
}
