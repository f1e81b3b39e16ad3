// The monitoring tab's health: each daemon as the node last reported it (up or down, for how long,
// how often it started in a day, why not), the last change applied, whether the node is heard
// from, and the service's tasks of the last week (provisioning, applies, backups, restores).
import type { Task } from '@debesis/contract';
import { useTranslation } from 'react-i18next';
import { useMonitoringStatus, useServiceTasks } from '../../../workspace/monitoring-api.ts';
import { useDaemonLabel } from '../daemon-names.ts';
import { RelativeTime, useNow } from '../kit/RelativeTime.tsx';
import { TableScroll } from '../kit/TableScroll.tsx';
import '../kit/data-table.css';
import {
  DaemonStateBadge,
  formatDuration,
  Loading,
  LoadFailure,
  useFormats,
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
      <section className="card resource-section" aria-labelledby="monitoring-node-title">
        <h2 id="monitoring-node-title" className="resource-section__title">
          {t('health.title')}
        </h2>
        {status.isPending && <Loading />}
        {status.isError && <LoadFailure retry={status.refetch} testId="monitoring-health-error" />}
        {data && (
          <dl className="service-facts" data-testid="monitoring-health">
            <div>
              <dt>{t('node.title')}</dt>
              <dd data-testid="monitoring-health-node">
                {data.node === null
                  ? t('node.notPlaced')
                  : data.node.online
                    ? t('node.online', { name: data.node.name })
                    : t('node.offline', { name: data.node.name })}
              </dd>
            </div>
            <div>
              <dt>{t('node.lastSeen')}</dt>
              <dd data-testid="monitoring-health-last-seen">
                {data.node?.last_seen_at ? (
                  <RelativeTime at={data.node.last_seen_at} now={now} justNow={t('justNow')} />
                ) : (
                  t('node.neverSeen')
                )}
              </dd>
            </div>
            <div>
              <dt>{t('health.lastApply')}</dt>
              <dd data-testid="monitoring-last-apply">
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
              </dd>
            </div>
            <div>
              <dt>{t('health.reported')}</dt>
              <dd>
                {data.reported_at ? (
                  <RelativeTime at={data.reported_at} now={now} justNow={t('justNow')} />
                ) : (
                  t('node.neverSeen')
                )}
              </dd>
            </div>
          </dl>
        )}
      </section>

      {data && (
        <section className="card resource-section" aria-labelledby="monitoring-daemons-title">
          <h2 id="monitoring-daemons-title" className="resource-section__title">
            {t('health.daemonsTitle')}
          </h2>
          {data.daemons.length === 0 ? (
            <p className="text-muted" data-testid="monitoring-daemons-none">
              {t('health.daemonsNone')}
            </p>
          ) : (
            <TableScroll label={t('health.daemonsTitle')}>
              <table className="data-table" data-testid="monitoring-daemons">
                <thead>
                  <tr>
                    <th scope="col">{t('health.daemon')}</th>
                    <th scope="col">{t('health.state')}</th>
                    <th scope="col">{t('health.uptime')}</th>
                    <th scope="col" className="numeric">
                      {t('health.starts')}
                    </th>
                    <th scope="col">{t('health.reason')}</th>
                  </tr>
                </thead>
                <tbody>
                  {data.daemons.map((daemon) => (
                    <tr key={daemon.name} data-testid={`monitoring-daemon-${daemon.name}`}>
                      <th scope="row">{daemonLabel(daemon.name)}</th>
                      <td>
                        <DaemonStateBadge state={daemon.state} />
                      </td>
                      <td>
                        {daemon.uptime_seconds === null ? '' : formatDuration(daemon.uptime_seconds, t)}
                      </td>
                      <td className="numeric">{format.count(daemon.starts_24h)}</td>
                      <td>{daemon.reason ?? ''}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
          )}
        </section>
      )}
    </>
  );
}

function Tasks({ serviceId }: { serviceId: string }) {
  const { t } = useTranslation(['monitoringTab', 'workspace']);
  const format = useFormats();
  const tasks = useServiceTasks(serviceId, TASKS_HOURS);
  return (
    <section className="card resource-section" aria-labelledby="monitoring-tasks-title">
      <div>
        <h2 id="monitoring-tasks-title" className="resource-section__title">
          {t('health.tasksTitle')}
        </h2>
        <p className="text-muted resource-section__lead">{t('health.tasksLead')}</p>
      </div>
      {tasks.isPending && <Loading />}
      {tasks.isError && <LoadFailure retry={tasks.refetch} testId="monitoring-tasks-error" />}
      {tasks.isSuccess && tasks.data.tasks.length === 0 && (
        <p className="text-muted" data-testid="monitoring-tasks-none">
          {t('health.tasksNone')}
        </p>
      )}
      {tasks.data && tasks.data.tasks.length > 0 && (
        <TableScroll label={t('health.tasksTitle')}>
          <table className="data-table" data-testid="monitoring-tasks">
            <thead>
              <tr>
                <th scope="col">{t('health.task')}</th>
                <th scope="col">{t('health.state')}</th>
                <th scope="col">{t('health.started')}</th>
                <th scope="col">{t('health.duration')}</th>
                <th scope="col">{t('health.error')}</th>
              </tr>
            </thead>
            <tbody>
              {tasks.data.tasks.map((task) => (
                <tr key={task.id} data-testid={`monitoring-task-${task.id}`}>
                  <th scope="row">
                    {t(`taskKind.${task.kind}`)}
                    {task.subject !== null && <span className="text-muted"> · {task.subject}</span>}
                  </th>
                  <td>
                    <span className={`badge ${TASK_TONE[task.state]}`} data-state={task.state}>
                      {t(`taskState.${task.state}`)}
                    </span>
                  </td>
                  <td>
                    <time dateTime={task.started_at}>{format.dateTime(task.started_at)}</time>
                  </td>
                  <td>{taskDuration(task, t)}</td>
                  <td>{task.error ?? task.error_code ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </section>
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
