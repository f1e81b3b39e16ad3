// A service's backup history (spec §3 "Backup history entry": date, schedule, type, status, size,
// files), newest first, all of it or one schedule's (the choice in the address, `?history-schedule=`,
// so a link or a reload keeps it). A queued or running backup moves by itself: the list is asked
// again every 2 s while one is (backups-api.ts), with a running one's progress as a bar; once none
// is, the usage and the schedules' last status are asked again, and the list is not. A backup that
// can still be opened has Browse.
import type { BackupSchedule, BackupSession } from '@debesis/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { SelectField } from '../../../components/form/fields.tsx';
import { isUnderway, useBackupSessions } from '../../../workspace/backups-api.ts';
import { workspaceKeys } from '../../../workspace/workspace-keys.ts';
import { formatDateTime } from '../../activity/relative-time.ts';
import { numberFormat, numberLocale } from '../../plans/format.ts';
import { durationText, JobFailure, JobProgress, JobStatusBadge, scheduleName } from './backup-parts.tsx';
import { DataTable } from '../kit/DataTable.tsx';
import { RelativeTime, useNow } from '../kit/RelativeTime.tsx';
import { ReportCard } from '../kit/ReportCard.tsx';
import { RowAction } from '../resource-parts.tsx';
import { formatBytes } from '../service-parts.tsx';

/** The address's parameter naming the schedule whose history is shown. */
export const HISTORY_SCHEDULE_PARAM = 'history-schedule';

/** When a backup happened, as the list and the browser name it: when it started, else when it was due. */
export const sessionTime = (session: BackupSession): string => session.started_at ?? session.created_at;

const testIdOf = (session: BackupSession): string => `backup-session-${session.id}`;

/** Once nothing is underway any more, what a finished backup changed is asked again. */
function useRefreshWhenSettled(serviceId: string, underway: boolean): void {
  const client = useQueryClient();
  const was = useRef(underway);
  useEffect(() => {
    if (was.current && !underway) {
      void client.invalidateQueries({ queryKey: workspaceKeys.backupUsage(serviceId) });
      void client.invalidateQueries({ queryKey: workspaceKeys.backupSchedules(serviceId) });
    }
    was.current = underway;
  }, [client, serviceId, underway]);
}

export function BackupHistorySection({
  serviceId,
  schedules,
  onBrowse,
}: {
  serviceId: string;
  /** The schedules to filter by. */
  schedules: readonly BackupSchedule[];
  onBrowse: (session: BackupSession) => void;
}) {
  const { t, i18n } = useTranslation(['backupsTab', 'workspace']);
  const now = useNow();
  const [params, setParams] = useSearchParams();
  const scheduleId = params.get(HISTORY_SCHEDULE_PARAM) || null;
  const sessions = useBackupSessions(serviceId, scheduleId);
  useRefreshWhenSettled(
    serviceId,
    (sessions.data?.sessions ?? []).some((session) => isUnderway(session.status)),
  );
  const chooseSchedule = (id: string) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (id === '') next.delete(HISTORY_SCHEDULE_PARAM);
        else next.set(HISTORY_SCHEDULE_PARAM, id);
        return next;
      },
      { replace: true },
    );
  const locale = numberLocale(i18n.language);
  const count = (value: number) => numberFormat(locale).format(value);
  const none = <span className="text-muted">{t('common.none')}</span>;
  return (
    <ReportCard
      id="backup-history"
      title={t('history.title')}
      lead={t('history.lead')}
      actions={
        <SelectField
          id="backup-history-schedule"
          label={t('history.filter')}
          className="backup-history__filter"
          value={scheduleId ?? ''}
          onChange={(event) => chooseSchedule(event.target.value)}
          data-testid="backup-history-schedule"
        >
          <option value="">{t('history.allSchedules')}</option>
          {schedules.map((schedule) => (
            <option key={schedule.id} value={schedule.id}>
              {scheduleName(schedule, schedule.name, t)}
            </option>
          ))}
        </SelectField>
      }
      query={sessions}
      failure={t('history.loadFailed')}
    >
      {({ sessions: list }) => (
        <DataTable
          label={t('history.title')}
          className="backup-table"
          testId="backup-history-table"
          empty={{ text: t('history.empty'), testId: 'backup-history-empty' }}
          rows={list}
          rowKey={(session) => session.id}
          rowData={(session) => ({ 'data-testid': testIdOf(session) })}
          columns={[
            {
              title: t('history.date'),
              cell: (session) => (
                <RelativeTime at={sessionTime(session)} now={now} justNow={t('common.justNow')} />
              ),
            },
            {
              title: t('history.status'),
              className: 'backup-history__status',
              cell: (session) => (
                <>
                  <JobStatusBadge status={session.status} testId={`${testIdOf(session)}-status`} />
                  {session.status === 'running' && session.progress && (
                    <JobProgress
                      progress={session.progress}
                      label={t('history.progress')}
                      testId={`${testIdOf(session)}-progress`}
                    />
                  )}
                  {session.status === 'failed' && (
                    <JobFailure
                      code={session.error_code}
                      error={session.error}
                      testId={`${testIdOf(session)}-failure`}
                    />
                  )}
                  {session.pruned && <p className="text-muted backup-note">{t('history.pruned')}</p>}
                </>
              ),
            },
            {
              title: t('history.schedule'),
              cell: (session) =>
                scheduleName(
                  schedules.find((schedule) => schedule.id === session.schedule_id),
                  session.schedule_name,
                  t,
                ),
            },
            {
              title: t('history.type'),
              cell: (session) => (
                <>
                  <span data-testid={`${testIdOf(session)}-type`}>{t(`history.type_${session.type}`)}</span>
                  <span className="backup-note text-muted" data-testid={`${testIdOf(session)}-trigger`}>
                    {t(`history.trigger_${session.trigger}`)}
                  </span>
                </>
              ),
            },
            {
              title: t('history.sizeAdded'),
              numeric: true,
              data: (session) => ({ 'data-testid': `${testIdOf(session)}-size` }),
              cell: (session) =>
                session.size_added === null ? none : formatBytes(session.size_added, i18n.language),
            },
            {
              title: t('history.files'),
              numeric: true,
              data: (session) => ({ 'data-testid': `${testIdOf(session)}-files` }),
              cell: (session) =>
                session.files === null
                  ? none
                  : session.files_new === null
                    ? count(session.files)
                    : t('history.filesNew', { files: count(session.files), added: count(session.files_new) }),
            },
            {
              title: t('history.duration'),
              numeric: true,
              cell: (session) =>
                session.duration_seconds === null ? none : durationText(session.duration_seconds, t),
            },
            {
              title: t('history.actions'),
              hideTitle: true,
              cell: (session) =>
                session.browsable && (
                  <RowAction
                    label={t('history.browse')}
                    target={t('history.browseTarget', {
                      date: formatDateTime(new Date(sessionTime(session)), i18n.language),
                    })}
                    onClick={() => onBrowse(session)}
                    testId={`${testIdOf(session)}-browse`}
                  />
                ),
            },
          ]}
        />
      )}
    </ReportCard>
  );
}
