// A service's snapshots (issue 37): read-only copies of its whole storage taken by the storage node
// every few minutes and on demand, which Windows shows as Previous Versions of a share's files. The
// list, newest first, how long they are kept, how to reach them from Windows, and "Take a snapshot
// now" (no confirmation: it changes nothing and costs next to nothing), with what it did as a
// notice. A storage made before snapshots says it takes none. Each snapshot opens in the backup
// browser (SnapshotBrowser.tsx, `onBrowse`); nothing is restored from there but by downloading.
import type { Snapshot } from '@debesis/contract';
import { useTranslation } from 'react-i18next';
import { FormAlert } from '../../components/form/fields.tsx';
import { snapshotsApi, useSnapshots } from '../../workspace/snapshots-api.ts';
import { useWorkspaceMutation } from '../../workspace/workspace-resource.ts';
import { formatDateTime } from '../activity/relative-time.ts';
import { ReportCard } from './kit/ReportCard.tsx';
import { TableScroll } from './kit/TableScroll.tsx';
import { OperationError, RowAction } from './resource-parts.tsx';

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
          <button
            type="button"
            className="btn btn--primary"
            disabled={take.isPending || !snapshots.isSuccess}
            onClick={() => take.mutate(undefined)}
            data-testid="snapshots-take"
          >
            {take.isPending ? t('snapshots.taking') : t('snapshots.take')}
          </button>
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
        ) : data.snapshots.length === 0 ? (
          <p className="text-muted resource-section__empty" data-testid="snapshots-empty">
            {t('snapshots.empty', { minutes })}
          </p>
        ) : (
          <TableScroll label={t('snapshots.title')}>
            <table className="data-table backup-table" data-testid="snapshots-table">
              <thead>
                <tr>
                  <th scope="col">{t('snapshots.when')}</th>
                  <th scope="col">{t('snapshots.kind')}</th>
                  <th scope="col">{t('snapshots.name')}</th>
                  <th scope="col">
                    <span className="visually-hidden">{t('snapshots.actions')}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.snapshots.map((snapshot) => (
                  <tr key={snapshot.name} data-testid={`snapshot-${snapshot.name}`}>
                    <th scope="row">{when(snapshot.taken_at)}</th>
                    <td>
                      <span className={snapshot.kind === 'manual' ? 'badge badge--info' : 'badge'}>
                        {t(`snapshots.kind_${snapshot.kind}`)}
                      </span>
                    </td>
                    <td>
                      <code>{snapshot.name}</code>
                    </td>
                    <td>
                      <RowAction
                        label={t('snapshots.browse')}
                        target={t('snapshots.browseTarget', { when: when(snapshot.taken_at) })}
                        onClick={() => onBrowse(snapshot)}
                        testId={`snapshot-${snapshot.name}-browse`}
                      />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )
      }
    </ReportCard>
  );
}
