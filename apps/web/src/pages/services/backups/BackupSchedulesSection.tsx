// The backup schedules of a service (spec §3 "Backup schedule", §4: active or paused, run now,
// paused and resumed): each with when it runs in words and in which time zone, its folders, what
// it keeps, its next run and its last backup's status. The provider's daily backup is one of them,
// marked so: it can be run now, never edited, paused or deleted. Deleting a schedule keeps its
// history (the question says so).
import type { BackupSchedule, BackupSession } from '@debesis/contract';
import { useTranslation } from 'react-i18next';
import { FormAlert } from '../../../components/form/fields.tsx';
import { backupsApi, useBackupSchedules, useBackupSources } from '../../../workspace/backups-api.ts';
import { useWorkspaceMutation } from '../../../workspace/workspace-resource.ts';
import { localeOf } from '../../activity/relative-time.ts';
import {
  JobStatusBadge,
  PathList,
  retentionText,
  scheduleName,
  whenText,
  type BackupsTranslate,
} from './backup-parts.tsx';
import { backupScheduleForm } from './backup-schedule-form.tsx';
import { Facts, ResourceCrud } from '../kit/ResourceCrud.tsx';
import { RelativeTime, useNow } from '../kit/RelativeTime.tsx';
import { OperationError, RowAction } from '../resource-parts.tsx';

/** A time as the schedule's own zone reads it, so it matches "Daily at 02:00 (Europe/Vilnius)". */
function inZone(at: string, zone: string, language: string): string {
  const date = new Date(at);
  if (Number.isNaN(date.getTime())) return at;
  try {
    return new Intl.DateTimeFormat(localeOf(language), {
      dateStyle: 'medium',
      timeStyle: 'short',
      timeZone: zone,
    }).format(date);
  } catch {
    return date.toLocaleString(localeOf(language));
  }
}

/**
 * The action the owner took last on a row, for its notice: which, on what, and how it went. A run
 * follows its backup: the schedule list (polled while one is underway) names the run's session as
 * its last one, so "queued" turns into running, done or failed instead of staying.
 */
function ActionNotice({
  action,
  schedules,
  t,
}: {
  action: {
    kind: 'run' | 'state';
    schedule: BackupSchedule;
    isSuccess: boolean;
    isError: boolean;
    error: unknown;
    session?: BackupSession;
  } | null;
  schedules: readonly BackupSchedule[];
  t: BackupsTranslate;
}) {
  if (!action) return null;
  const { kind, schedule } = action;
  const pausing = kind === 'state' && schedule.state === 'active';
  if (action.isError) {
    const failure =
      kind === 'run'
        ? t('schedules.runFailed')
        : pausing
          ? t('schedules.pauseFailed')
          : t('schedules.resumeFailed');
    return <OperationError error={action.error} failure={failure} testId="backup-schedules-action-error" />;
  }
  if (!action.isSuccess) return null;
  const name = scheduleName(schedule, schedule.name, t);
  if (kind === 'run') {
    const last = schedules.find((each) => each.id === schedule.id)?.last_session;
    const status =
      last && last.id === action.session?.id ? last.status : (action.session?.status ?? 'queued');
    return (
      <FormAlert tone={status === 'failed' ? 'error' : 'success'} testId="backup-schedules-action-done">
        {t(`schedules.run.${status}`, { name })}
      </FormAlert>
    );
  }
  return (
    <FormAlert tone="success" testId="backup-schedules-action-done">
      {pausing ? t('schedules.paused', { name }) : t('schedules.resumed', { name })}
    </FormAlert>
  );
}

export function BackupSchedulesSection({ serviceId }: { serviceId: string }) {
  const { t, i18n } = useTranslation(['backupsTab', 'workspace']);
  const now = useNow();
  const schedules = useBackupSchedules(serviceId);
  const sources = useBackupSources(serviceId);
  const run = useWorkspaceMutation((schedule: BackupSchedule) => backupsApi.trigger(serviceId, schedule.id));
  const toggle = useWorkspaceMutation((schedule: BackupSchedule) =>
    backupsApi.updateSchedule(serviceId, schedule.id, {
      state: schedule.state === 'active' ? 'paused' : 'active',
    }),
  );
  // One notice at a time: each button resets the other's, so the one with variables went last.
  const last = run.variables
    ? { kind: 'run' as const, schedule: run.variables, session: run.data, ...run }
    : toggle.variables
      ? { kind: 'state' as const, schedule: toggle.variables, ...toggle }
      : null;
  const busy = run.isPending || toggle.isPending;
  return (
    <ResourceCrud
      section={{
        title: t('schedules.title'),
        lead: t('schedules.lead'),
        addLabel: t('schedules.add'),
        notice: (
          <>
            {sources.isError && (
              <OperationError error={sources.error} failure={t('schedules.sourcesLoadFailed')} />
            )}
            <ActionNotice action={last} schedules={schedules.data?.schedules ?? []} t={t} />
          </>
        ),
        loadFailed: t('schedules.loadFailed'),
        emptyText: t('schedules.empty'),
        testId: 'backup-schedules',
      }}
      load={schedules}
      items={schedules.data?.schedules ?? []}
      nameOf={(schedule) => scheduleName(schedule, schedule.name, t)}
      // Names may repeat: a schedule is known by its id.
      keyOf={(schedule) => schedule.id}
      row="backup-schedule"
      // The form lists the folders to choose from: wait for them.
      ready={schedules.isSuccess && sources.isSuccess}
      locked={(schedule) => schedule.provider_managed}
      badges={(schedule) => (
        <>
          {schedule.provider_managed && (
            <span className="badge badge--info" data-testid={`backup-schedule-${schedule.id}-provider`}>
              {t('schedules.providerManaged')}
            </span>
          )}
          <span
            className={schedule.state === 'active' ? 'badge badge--success' : 'badge badge--warning'}
            data-testid={`backup-schedule-${schedule.id}-state`}
          >
            {t(`schedules.state_${schedule.state}`)}
          </span>
        </>
      )}
      details={(schedule) => (
        <Facts
          facts={[
            {
              label: t('schedules.runs'),
              value: t('when.inZone', { when: whenText(schedule, t), zone: schedule.time_zone }),
              testId: `backup-schedule-${schedule.id}-when`,
            },
            {
              label: t('schedules.folders'),
              value: <PathList paths={schedule.paths} />,
              testId: `backup-schedule-${schedule.id}-paths`,
            },
            {
              label: t('schedules.retention'),
              value: retentionText(schedule, t),
              testId: `backup-schedule-${schedule.id}-retention`,
            },
            {
              label: t('schedules.nextRun'),
              value: schedule.next_run_at
                ? inZone(schedule.next_run_at, schedule.time_zone, i18n.language)
                : t('schedules.notWhilePaused'),
              testId: `backup-schedule-${schedule.id}-next`,
            },
            {
              label: t('schedules.lastBackup'),
              value: schedule.last_session ? (
                <span className="backup-last">
                  <JobStatusBadge
                    status={schedule.last_session.status}
                    testId={`backup-schedule-${schedule.id}-last`}
                  />
                  <RelativeTime at={schedule.last_session.at} now={now} justNow={t('common.justNow')} />
                </span>
              ) : (
                t('schedules.noBackupYet')
              ),
            },
          ]}
        />
      )}
      actions={(schedule) => (
        <>
          <RowAction
            label={
              run.isPending && run.variables?.id === schedule.id
                ? t('schedules.running')
                : t('schedules.runNow')
            }
            target={schedule.name}
            disabled={busy}
            onClick={() => {
              toggle.reset();
              run.mutate(schedule);
            }}
            testId={`backup-schedule-${schedule.id}-run`}
          />
          {!schedule.provider_managed && (
            <RowAction
              label={schedule.state === 'active' ? t('schedules.pause') : t('schedules.resume')}
              target={schedule.name}
              disabled={busy}
              onClick={() => {
                run.reset();
                toggle.mutate(schedule);
              }}
              testId={`backup-schedule-${schedule.id}-toggle`}
            />
          )}
        </>
      )}
      form={backupScheduleForm(serviceId, sources.data, t)}
      remove={{
        title: (name) => t('schedules.deleteTitle', { name }),
        body: t('schedules.deleteBody'),
        failure: t('schedules.deleteFailed'),
        run: (id) => backupsApi.deleteSchedule(serviceId, id),
      }}
    />
  );
}
