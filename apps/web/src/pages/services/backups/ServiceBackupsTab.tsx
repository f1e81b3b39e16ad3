// /dashboard/services/{id}/backups (spec §2 "backups": schedules, history, browsing, usage, backup
// clients): how much the service's backups take, its schedules (the provider's daily one among
// them), every backup made with its progress while it runs, one backup opened to restore a file or
// folder from it, the restores asked for, and the customer's own machines that push their backups
// here (BackupClientsSection.tsx). Beside the backups, the storage's own snapshots (SnapshotsSection.tsx):
// Windows' Previous Versions.
import type { BackupSession, Snapshot } from '@debesis/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useBackupRestores, useBackupSchedules, useBackupUsage } from '../../../workspace/backups-api.ts';
import { formatRelativeTime } from '../../activity/relative-time.ts';
import { numberFormat, numberLocale } from '../../plans/format.ts';
import { JobFailure, JobStatusBadge, scheduleName } from './backup-parts.tsx';
import { BackupBrowser } from './BackupBrowser.tsx';
import { BackupClientsSection } from './BackupClientsSection.tsx';
import { BackupHistorySection } from './BackupHistorySection.tsx';
import { BackupSchedulesSection } from './BackupSchedulesSection.tsx';
import { SnapshotBrowser } from './SnapshotBrowser.tsx';
import { SnapshotsSection } from './SnapshotsSection.tsx';
import { RelativeTime, useNow } from '../kit/RelativeTime.tsx';
import { ReportCard } from '../kit/ReportCard.tsx';
import { DataTable } from '../kit/DataTable.tsx';
import { Facts } from '../kit/ResourceCrud.tsx';
import { formatBytes } from '../service-parts.tsx';
import { useServiceTab } from '../use-service-tab.ts';
import './backups.css';

export function ServiceBackupsTab() {
  const { service } = useServiceTab('backups');
  return <BackupsPanel serviceId={service.id} />;
}

/** Everything of a service's backups; the owner's tab and a subuser's area (pages/subuser) show it. */
export function BackupsPanel({ serviceId }: { serviceId: string }) {
  const { t } = useTranslation(['backupsTab', 'workspace']);
  const service = { id: serviceId };
  const schedules = useBackupSchedules(service.id);
  // One tree open at a time: a backup, or one of the storage's snapshots.
  const [browsing, setBrowsing] = useState<BackupSession | null>(null);
  const [browsingSnapshot, setBrowsingSnapshot] = useState<Snapshot | null>(null);
  const browseBackup = (session: BackupSession) => {
    setBrowsingSnapshot(null);
    setBrowsing(session);
  };
  const browseSnapshot = (snapshot: Snapshot) => {
    setBrowsing(null);
    setBrowsingSnapshot(snapshot);
  };
  return (
    <div className="service-tab-stack">
      <BackupUsageCard serviceId={service.id} />
      <SnapshotsSection serviceId={service.id} onBrowse={browseSnapshot} />
      {browsingSnapshot && (
        <SnapshotBrowser
          // Another snapshot opened starts again at its root.
          key={browsingSnapshot.name}
          serviceId={service.id}
          snapshot={browsingSnapshot}
          onClose={() => setBrowsingSnapshot(null)}
        />
      )}
      <BackupSchedulesSection serviceId={service.id} />
      <BackupHistorySection
        serviceId={service.id}
        schedules={schedules.data?.schedules ?? []}
        onBrowse={browseBackup}
      />
      {browsing && (
        <BackupBrowser
          // Another backup opened starts again at its root.
          key={browsing.id}
          serviceId={service.id}
          session={browsing}
          scheduleLabel={scheduleName(
            schedules.data?.schedules.find((schedule) => schedule.id === browsing.schedule_id),
            browsing.schedule_name,
            t,
          )}
          onClose={() => setBrowsing(null)}
        />
      )}
      <BackupRestoresSection serviceId={service.id} />
      <BackupClientsSection serviceId={service.id} />
    </div>
  );
}

/** The repository: what it takes on the node, what it stores, how many backups, the last good one. */
function BackupUsageCard({ serviceId }: { serviceId: string }) {
  const { t, i18n } = useTranslation(['backupsTab', 'workspace']);
  const now = useNow();
  const usage = useBackupUsage(serviceId);
  const notMeasured = <span className="text-muted">{t('common.notMeasured')}</span>;
  const bytes = (value: number | null) => (value === null ? notMeasured : formatBytes(value, i18n.language));
  return (
    <ReportCard
      id="backup-usage"
      title={t('usage.title')}
      lead={t('usage.lead')}
      query={usage}
      failure={t('usage.loadFailed')}
    >
      {(data) => (
        <>
          <Facts
            className="service-facts"
            facts={[
              {
                label: t('usage.repository'),
                value: bytes(data.repository_bytes),
                testId: 'backup-usage-repository',
              },
              { label: t('usage.stored'), value: bytes(data.stored_bytes), testId: 'backup-usage-stored' },
              {
                label: t('usage.snapshots'),
                value:
                  data.snapshots === null
                    ? notMeasured
                    : numberFormat(numberLocale(i18n.language)).format(data.snapshots),
                testId: 'backup-usage-snapshots',
              },
              {
                label: t('usage.lastSuccess'),
                value: data.last_success_at ? (
                  <RelativeTime at={data.last_success_at} now={now} justNow={t('common.justNow')} />
                ) : (
                  <span className="text-muted">{t('usage.never')}</span>
                ),
                testId: 'backup-usage-last-success',
              },
            ]}
          />
          {data.measured_at && (
            <p className="text-muted backup-note" data-testid="backup-usage-measured">
              {t('usage.measuredAt', {
                when: formatRelativeTime(data.measured_at, {
                  now,
                  language: i18n.language,
                  justNow: t('common.justNow'),
                }),
              })}
            </p>
          )}
        </>
      )}
    </ReportCard>
  );
}

/** The restores asked for, newest first; a queued or running one moves by itself (backups-api.ts). */
function BackupRestoresSection({ serviceId }: { serviceId: string }) {
  const { t, i18n } = useTranslation(['backupsTab', 'workspace']);
  const now = useNow();
  const restores = useBackupRestores(serviceId);
  const none = <span className="text-muted">{t('common.none')}</span>;
  return (
    <ReportCard
      id="backup-restores"
      title={t('restores.title')}
      lead={t('restores.lead')}
      query={restores}
      failure={t('restores.loadFailed')}
    >
      {({ restores: list }) => (
        <DataTable
          label={t('restores.title')}
          className="backup-table"
          testId="backup-restores-table"
          empty={{ text: t('restores.empty'), testId: 'backup-restores-empty' }}
          rows={list}
          rowKey={(restore) => restore.id}
          rowData={(restore) => ({ 'data-testid': `backup-restore-${restore.id}` })}
          columns={[
            {
              title: t('restores.date'),
              cell: (restore) => (
                <RelativeTime at={restore.created_at} now={now} justNow={t('common.justNow')} />
              ),
            },
            {
              title: t('restores.status'),
              className: 'backup-history__status',
              cell: (restore) => (
                <>
                  <JobStatusBadge status={restore.status} testId={`backup-restore-${restore.id}-status`} />
                  {restore.status === 'failed' && (
                    <JobFailure
                      code={restore.error_code}
                      error={restore.error}
                      testId={`backup-restore-${restore.id}-failure`}
                    />
                  )}
                </>
              ),
            },
            {
              title: t('restores.what'),
              className: 'backup-path-cell',
              cell: (restore) => <code>{restore.path}</code>,
            },
            {
              title: t('restores.where'),
              className: 'backup-path-cell',
              data: (restore) => ({ 'data-testid': `backup-restore-${restore.id}-where` }),
              cell: (restore) =>
                restore.target === 'folder' && restore.restored_to ? (
                  <>
                    {t('restores.target_folder')}: <code>{restore.restored_to}</code>
                  </>
                ) : (
                  t(`restores.target_${restore.target}`)
                ),
            },
            {
              title: t('restores.files'),
              numeric: true,
              data: (restore) => ({ 'data-testid': `backup-restore-${restore.id}-files` }),
              cell: (restore) =>
                restore.files_restored === null
                  ? none
                  : numberFormat(numberLocale(i18n.language)).format(restore.files_restored),
            },
          ]}
        />
      )}
    </ReportCard>
  );
}
