// The monitoring tab's health: each daemon as the node last reported it (up or down, for how long,
// how often it started in a day, why not), the last change applied, whether the node is heard
// from, and the service's tasks of the last week (provisioning, applies, backups, restores).
import type { Task } from '@debesis/contract';
import { useTranslation } from 'react-i18next';
import { useMonitoringStatus, useServiceTasks } from '../../../workspace/monitoring-api.ts';
import { useDaemonLabel } from '../daemon-names.ts';
import { RelativeTime, useNow } from '../kit/RelativeTime.tsx';
import { DataTable } from '../kit/DataTable.tsx';
import { Facts } from '../kit/ResourceCrud.tsx';
import {
  DaemonStateBadge,
  formatDuration,
  MonitoringSection,
  MonitoringTableSection,
  useFormats,
  nodeText,
  type Translate,
} from './monitoring-parts.tsx';

/** The tasks of a week: the health view looks further back than the activity's default day. */
export const TASKS_HOURS = 168;

const TASK_TONE: Record<Task['state'], string> = {
  queued: 'badge--info',
  running: 'badge--info',
  completed: 'badge--success',
  failed: 'badge--danger',
};

function taskDuration(task: Task, t: Translate): string {
  return task.duration_ms === null ? '' : formatDuration(task.duration_ms / 1000, t);
}

function Status({ serviceId }: { serviceId: string }) {
  const { t } = useTranslation(['monitoringTab', 'workspace']);
  const daemonLabel = useDaemonLabel();
  const format = useFormats();
  const now = useNow();
  const status = useMonitoringStatus(serviceId);
  const data = status.data;
  return (
    <>
      <MonitoringSection
        id="monitoring-node"
        title={t('health.title')}
        load={status}
        failureTestId="monitoring-health-error"
      >
        {data && (
          <Facts
            className="service-facts"
            testId="monitoring-health"
            facts={[
              {
                label: t('node.title'),
                value: nodeText(data.node, t),
                testId: 'monitoring-health-node',
              },
              {
                label: t('node.lastSeen'),
                value: data.node?.last_seen_at ? (
                  <RelativeTime at={data.node.last_seen_at} now={now} justNow={t('justNow')} />
                ) : (
                  t('node.neverSeen')
                ),
                testId: 'monitoring-health-last-seen',
              },
              {
                label: t('health.lastApply'),
                value: (
                  <>
                    {data.last_apply.observed_generation < data.last_apply.generation
                      ? t('health.applyPending', {
                          observed: data.last_apply.observed_generation,
                          generation: data.last_apply.generation,
                        })
                      : data.last_apply.ok === false
                        ? t('health.applyFailed', {
                            generation: data.last_apply.generation,
                            code: data.last_apply.error_code ?? '—',
                          })
                        : t('health.applied', { generation: data.last_apply.generation })}
                    {data.last_apply.applied_at !== null && (
                      <>
                        {' · '}
                        <RelativeTime at={data.last_apply.applied_at} now={now} justNow={t('justNow')} />
                      </>
                    )}
                  </>
                ),
                testId: 'monitoring-last-apply',
              },
              {
                label: t('health.reported'),
                value: data.reported_at ? (
                  <RelativeTime at={data.reported_at} now={now} justNow={t('justNow')} />
                ) : (
                  t('node.neverSeen')
                ),
              },
            ]}
          />
        )}
      </MonitoringSection>

      {data && (
        <MonitoringTableSection
          id="monitoring-daemons"
          title={t('health.daemonsTitle')}
          none={t('health.daemonsNone')}
          rows={data.daemons}
          rowKey={(daemon) => daemon.name}
          rowData={(daemon) => ({ 'data-testid': `monitoring-daemon-${daemon.name}` })}
          columns={[
            { title: t('health.daemon'), cell: (daemon) => daemonLabel(daemon.name) },
            { title: t('health.state'), cell: (daemon) => <DaemonStateBadge state={daemon.state} /> },
            {
              title: t('health.uptime'),
              cell: (daemon) =>
                daemon.uptime_seconds === null ? '' : formatDuration(daemon.uptime_seconds, t),
            },
            { title: t('health.starts'), numeric: true, cell: (daemon) => format.count(daemon.starts_24h) },
            { title: t('health.reason'), cell: (daemon) => daemon.reason ?? '' },
          ]}
        />
      )}
    </>
  );
}

function Tasks({ serviceId }: { serviceId: string }) {
  const { t } = useTranslation(['monitoringTab', 'workspace']);
  const format = useFormats();
  const tasks = useServiceTasks(serviceId, TASKS_HOURS);
  return (
    <MonitoringSection
      id="monitoring-tasks"
      title={t('health.tasksTitle')}
      lead={t('health.tasksLead')}
      load={tasks}
    >
      {tasks.isSuccess && tasks.data.tasks.length === 0 && (
        <p className="text-muted" data-testid="monitoring-tasks-none">
          {t('health.tasksNone')}
        </p>
      )}
      {tasks.data && tasks.data.tasks.length > 0 && (
        <DataTable
          label={t('health.tasksTitle')}
          testId="monitoring-tasks"
          rows={tasks.data.tasks}
          rowKey={(task) => task.id}
          rowData={(task) => ({ 'data-testid': `monitoring-task-${task.id}` })}
          columns={[
            {
              title: t('health.task'),
              cell: (task) => (
                <>
                  {t(`taskKind.${task.kind}`)}
                  {task.subject !== null && <span className="text-muted"> · {task.subject}</span>}
                </>
              ),
            },
            {
              title: t('health.state'),
              cell: (task) => (
                <span className={`badge ${TASK_TONE[task.state]}`} data-state={task.state}>
                  {t(`taskState.${task.state}`)}
                </span>
              ),
            },
            {
              title: t('health.started'),
              cell: (task) => <time dateTime={task.started_at}>{format.dateTime(task.started_at)}</time>,
            },
            { title: t('health.duration'), cell: (task) => taskDuration(task, t) },
            { title: t('health.error'), cell: (task) => task.error ?? task.error_code ?? '' },
          ]}
        />
      )}
    </MonitoringSection>
  );
}

export function MonitoringHealth({ serviceId }: { serviceId: string }) {
  return (
    <>
      <Status serviceId={serviceId} />
      <Tasks serviceId={serviceId} />
    </>
  );
}
