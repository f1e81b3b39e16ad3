// A service's snapshots (issue 37): read-only copies of its whole storage taken by the storage node
// every few minutes and on demand, which Windows shows as Previous Versions of a share's files. The
// list, newest first, how long they are kept, how to reach them from Windows, and "Take a snapshot
// now" (no confirmation: it changes nothing and costs next to nothing), with what it did as a
// notice. A storage made before snapshots says it takes none. Each snapshot opens in the backup
// browser (SnapshotBrowser.tsx, `onBrowse`); nothing is restored from there but by downloading.
import type { Snapshot } from '@debesis/contract';
import { useTranslation } from 'react-i18next';
import { FormAlert } from '../../../components/form/fields.tsx';
import { snapshotsApi, useSnapshots } from '../../../workspace/snapshots-api.ts';
import { useWorkspaceMutation } from '../../../workspace/workspace-resource.ts';
import { formatDateTime } from '../../activity/relative-time.ts';
import { ReportCard } from '../kit/ReportCard.tsx';
import { DataTable } from '../kit/DataTable.tsx';
import { OperationError, RowAction } from '../resource-parts.tsx';
import { BusyButton } from '../../../components/form/BusyButton.tsx';

export function SnapshotsSection({
  serviceId,
  onBrowse,
}: {
  serviceId: string;
  onBrowse: (snapshot: Snapshot) => void;
}) {
  const { t, i18n } = useTranslation(['backupsTab', 'workspace']);
  const snapshots = useSnapshots(serviceId);
  const take = useWorkspaceMutation(() => snapshotsApi.take(serviceId));
  const minutes = snapshots.data?.interval_minutes ?? 15;
  const when = (at: string) => formatDateTime(new Date(at), i18n.language);
  const supported = snapshots.data?.supported !== false;
  return (
    <ReportCard
      id="snapshots"
      title={t('snapshots.title')}
      lead={
        <>
          {t('snapshots.lead', { minutes })} {t('snapshots.windows')} {t('snapshots.restoreHint')}
        </>
      }
      actions={
        supported && (
          <BusyButton
            busy={take.isPending}
            label={t('snapshots.take')}
            busyLabel={t('snapshots.taking')}
            type="button"
            disabled={!snapshots.isSuccess}
            onClick={() => take.mutate(undefined)}
            testId="snapshots-take"
          />
        )
      }
      notice={
        take.isError ? (
          <OperationError
            error={take.error}
            failure={t('snapshots.takeFailed')}
            testId="snapshots-take-error"
          />
        ) : take.isSuccess ? (
          <FormAlert tone="success" testId="snapshots-taken">
            {t('snapshots.taken', { when: when(take.data.snapshot.taken_at) })}
          </FormAlert>
        ) : null
      }
      query={snapshots}
      failure={t('snapshots.loadFailed')}
    >
      {(data) =>
        !data.supported ? (
          <p className="text-muted resource-section__empty" data-testid="snapshots-unsupported">
            {t(`snapshots.unsupported_${data.reason ?? 'ext4_storage'}`)}
          </p>
        ) : (
          <DataTable
            label={t('snapshots.title')}
            className="backup-table"
            testId="snapshots-table"
            empty={{ text: t('snapshots.empty', { minutes }), testId: 'snapshots-empty' }}
            rows={data.snapshots}
            rowKey={(snapshot) => snapshot.name}
            rowData={(snapshot) => ({ 'data-testid': `snapshot-${snapshot.name}` })}
            columns={[
              { title: t('snapshots.when'), cell: (snapshot) => when(snapshot.taken_at) },
              {
                title: t('snapshots.kind'),
                cell: (snapshot) => (
                  <span className={snapshot.kind === 'manual' ? 'badge badge--info' : 'badge'}>
                    {t(`snapshots.kind_${snapshot.kind}`)}
                  </span>
                ),
              },
              { title: t('snapshots.name'), cell: (snapshot) => <code>{snapshot.name}</code> },
              {
                title: t('snapshots.actions'),
                hideTitle: true,
                cell: (snapshot) => (
                  <RowAction
                    label={t('snapshots.browse')}
                    target={t('snapshots.browseTarget', { when: when(snapshot.taken_at) })}
                    onClick={() => onBrowse(snapshot)}
                    testId={`snapshot-${snapshot.name}-browse`}
                  />
                ),
              },
            ]}
          />
        )
      }
    </ReportCard>
  );
}
