// The monitoring tab's activity: what the service's daemons recorded in the window chosen (§9:
// 24, 48, 72 hours, a week; or real time, the last 100 minutes minute by minute, asked again every
// 10 s by itself). A chart of the events per bucket stacked by where they came from, the window's
// totals, its busiest users, and the newest events with older ones a "Load more" away.
import { ACTIVITY_EVENT_KINDS, ACTIVITY_SOURCES, type ActivityResponse } from '@debesis/contract';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { REALTIME_POLL_MS, useServiceActivity } from '../../../workspace/monitoring-api.ts';
import { BusyButton } from '../../../components/form/BusyButton.tsx';
import { DataTable } from '../kit/DataTable.tsx';
import { Facts } from '../kit/ResourceCrud.tsx';
import {
  Loading,
  LoadFailure,
  MonitoringSection,
  MonitoringTableSection,
  sourceColor,
  unixSeconds,
  useFormats,
  useWindowChoice,
  windowOf,
  WindowChoiceBar,
  type Formats,
  type Translate,
  type WindowChoice,
} from './monitoring-parts.tsx';
import { TimeSeriesChart, type ChartSeries } from './TimeSeriesChart.tsx';

/** The chart's series: one a source that recorded anything in the window, in the contract's order. */
function chartOf(page: ActivityResponse, t: Translate) {
  const times = page.series.map((bucket) => unixSeconds(bucket.start));
  const series: ChartSeries[] = [];
  ACTIVITY_SOURCES.forEach((source, index) => {
    const values = page.series.map((bucket) => bucket.by_source[source] ?? 0);
    if (values.some((value) => value > 0))
      series.push({ label: t(`source.${source}`), values, color: sourceColor(index) });
  });
  return { times, series };
}

function summaryOf(page: ActivityResponse, choice: WindowChoice, t: Translate, format: Formats): string {
  const window = t(`window.long_${choice}`);
  if (page.totals.events === 0) return t('activity.summaryNone', { window });
  const busiest = page.series.reduce((top, bucket) => (bucket.events > top.events ? bucket : top));
  const span = page.series.length * page.bucket_seconds;
  return t('activity.summary', {
    window,
    count: page.totals.events,
    events: format.count(page.totals.events),
    bytes: format.bytes(page.totals.bytes),
    when: format.when(unixSeconds(busiest.start), span),
    busiest: format.count(busiest.events),
  });
}

export function MonitoringActivity({ serviceId }: { serviceId: string }) {
  const { t } = useTranslation(['monitoringTab', 'workspace']);
  const format = useFormats();
  const [choice, setChoice] = useWindowChoice(true);
  const activity = useServiceActivity(serviceId, windowOf(choice));
  const first = activity.data?.pages[0];
  const events = useMemo(() => activity.data?.pages.flatMap((page) => page.events) ?? [], [activity.data]);
  const chart = useMemo(() => (first ? chartOf(first, t) : null), [first, t]);

  return (
    <>
      <MonitoringSection
        id="monitoring-activity"
        title={t('activity.title')}
        lead={t('activity.lead')}
        actions={<WindowChoiceBar value={choice} onChange={setChoice} realtime />}
      >
        {choice === 'realtime' && (
          <p className="monitoring-live" data-testid="monitoring-live">
            <span className="monitoring-live__dot" aria-hidden="true" />
            {t('activity.live', { seconds: REALTIME_POLL_MS / 1000 })}
          </p>
        )}
        {activity.isPending && <Loading />}
        {/* A later page that failed says so under the events: what is shown stays. */}
        {activity.isError && !first && (
          <LoadFailure retry={activity.refetch} testId="monitoring-activity-error" />
        )}
        {first && chart && (
          <>
            <TimeSeriesChart
              label={t('activity.chartLabel', { window: t(`window.long_${choice}`) })}
              summary={summaryOf(first, choice, t, format)}
              times={chart.times}
              series={chart.series}
              kind="stackedBars"
              formatValue={format.count}
              testId="monitoring-activity-chart"
            />
            <Facts
              className="service-facts"
              testId="monitoring-totals"
              facts={[
                {
                  label: t('activity.totalEvents'),
                  value: format.count(first.totals.events),
                  testId: 'monitoring-total-events',
                },
                {
                  label: t('activity.totalBytes'),
                  value: format.bytes(first.totals.bytes),
                  testId: 'monitoring-total-bytes',
                },
              ]}
            >
              {ACTIVITY_EVENT_KINDS.filter((kind) => first.totals.by_kind[kind] !== undefined).map((kind) => (
                <div key={kind} data-testid={`monitoring-total-${kind}`}>
                  <dt>{t(`eventKind.${kind}`)}</dt>
                  <dd>{format.count(first.totals.by_kind[kind] ?? 0)}</dd>
                </div>
              ))}
            </Facts>
          </>
        )}
      </MonitoringSection>

      {first && (
        <MonitoringTableSection
          id="monitoring-top-users"
          title={t('activity.usersTitle')}
          none={t('activity.usersNone')}
          rows={first.users}
          rowKey={(user) => user.user}
          columns={[
            { title: t('activity.user'), cell: (user) => user.user },
            { title: t('activity.events'), numeric: true, cell: (user) => format.count(user.events) },
            { title: t('activity.bytes'), numeric: true, cell: (user) => format.bytes(user.bytes) },
          ]}
        />
      )}

      {first && (
        <MonitoringSection id="monitoring-events" title={t('activity.eventsTitle')}>
          <DataTable
            label={t('activity.eventsTitle')}
            testId="monitoring-events"
            empty={{
              text: t('activity.eventsNone'),
              testId: 'monitoring-events-none',
              className: 'text-muted',
            }}
            rows={events}
            rowKey={(event) => event.id}
            rowData={(event) => ({ 'data-testid': `monitoring-event-${event.id}` })}
            rowHeader={false}
            columns={[
              {
                title: t('activity.time'),
                cell: (event) => <time dateTime={event.at}>{format.dateTime(event.at)}</time>,
              },
              {
                title: t('activity.user'),
                cell: (event) => event.user ?? <span className="text-muted">{t('activity.noUser')}</span>,
              },
              {
                title: t('activity.what'),
                cell: (event) => (
                  <>
                    {t(`eventKind.${event.kind}`)}{' '}
                    <span className="text-muted">({t(`source.${event.source}`)})</span>
                  </>
                ),
              },
              {
                title: t('activity.path'),
                className: 'monitoring-path',
                cell: (event) => (
                  <>
                    {event.path !== null && <code>{event.path}</code>}
                    {event.target !== null && (
                      <>
                        {' → '}
                        <code>{event.target}</code>
                      </>
                    )}
                  </>
                ),
              },
              {
                title: t('activity.bytes'),
                numeric: true,
                cell: (event) => (event.bytes === null ? '' : format.bytes(event.bytes)),
              },
              {
                title: t('activity.address'),
                cell: (event) => event.remote_address !== null && <code>{event.remote_address}</code>,
              },
            ]}
          />
          {activity.isFetchNextPageError && (
            <LoadFailure retry={activity.fetchNextPage} testId="monitoring-events-more-error" />
          )}
          {activity.hasNextPage && (
            <BusyButton
              busy={activity.isFetchingNextPage}
              label={t('activity.loadMore')}
              busyLabel={t('activity.loadingMore')}
              type="button"
              className="btn btn--secondary monitoring-more"
              onClick={() => void activity.fetchNextPage()}
              testId="monitoring-events-more"
            />
          )}
        </MonitoringSection>
      )}
    </>
  );
}
