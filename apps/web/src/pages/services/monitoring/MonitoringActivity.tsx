// The monitoring tab's activity: what the service's daemons recorded in the window chosen (§9:
// 24, 48, 72 hours, a week; or real time, the last 100 minutes minute by minute, asked again every
// 10 s by itself). A chart of the events per bucket stacked by where they came from, the window's
// totals, its busiest users, and the newest events with older ones a "Load more" away.
import {
  ACTIVITY_EVENT_KINDS,
  ACTIVITY_SOURCES,
  type ActivityEvent,
  type ActivityResponse,
} from '@debesis/contract';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { REALTIME_POLL_MS, useServiceActivity } from '../../../workspace/monitoring-api.ts';
import { TableScroll } from '../kit/TableScroll.tsx';
import '../kit/data-table.css';
import {
  Loading,
  LoadFailure,
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

function EventRow({ event, t, format }: { event: ActivityEvent; t: Translate; format: Formats }) {
  return (
    <tr data-testid={`monitoring-event-${event.id}`}>
      <td>
        <time dateTime={event.at}>{format.dateTime(event.at)}</time>
      </td>
      <td>{event.user ?? <span className="text-muted">{t('activity.noUser')}</span>}</td>
      <td>
        {t(`eventKind.${event.kind}`)} <span className="text-muted">({t(`source.${event.source}`)})</span>
      </td>
      <td className="monitoring-path">
        {event.path !== null && <code>{event.path}</code>}
        {event.target !== null && (
          <>
            {' → '}
            <code>{event.target}</code>
          </>
        )}
      </td>
      <td className="numeric">{event.bytes === null ? '' : format.bytes(event.bytes)}</td>
      <td>{event.remote_address !== null && <code>{event.remote_address}</code>}</td>
    </tr>
  );
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
      <section className="card resource-section" aria-labelledby="monitoring-activity-title">
        <div className="resource-section__head">
          <div>
            <h2 id="monitoring-activity-title" className="resource-section__title">
              {t('activity.title')}
            </h2>
            <p className="text-muted resource-section__lead">{t('activity.lead')}</p>
          </div>
          <WindowChoiceBar value={choice} onChange={setChoice} realtime />
        </div>
        {choice === 'realtime' && (
          <p className="monitoring-live" data-testid="monitoring-live">
            <span className="monitoring-live__dot" aria-hidden="true" />
            {t('activity.live', { seconds: REALTIME_POLL_MS / 1000 })}
          </p>
        )}
        {activity.isPending && <Loading />}
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
            <dl className="service-facts" data-testid="monitoring-totals">
              <div>
                <dt>{t('activity.totalEvents')}</dt>
                <dd data-testid="monitoring-total-events">{format.count(first.totals.events)}</dd>
              </div>
              <div>
                <dt>{t('activity.totalBytes')}</dt>
                <dd data-testid="monitoring-total-bytes">{format.bytes(first.totals.bytes)}</dd>
              </div>
              {ACTIVITY_EVENT_KINDS.filter((kind) => first.totals.by_kind[kind] !== undefined).map((kind) => (
                <div key={kind} data-testid={`monitoring-total-${kind}`}>
                  <dt>{t(`eventKind.${kind}`)}</dt>
                  <dd>{format.count(first.totals.by_kind[kind] ?? 0)}</dd>
                </div>
              ))}
            </dl>
          </>
        )}
      </section>

      {first && (
        <section className="card resource-section" aria-labelledby="monitoring-top-users-title">
          <h2 id="monitoring-top-users-title" className="resource-section__title">
            {t('activity.usersTitle')}
          </h2>
          {first.users.length === 0 ? (
            <p className="text-muted" data-testid="monitoring-top-users-none">
              {t('activity.usersNone')}
            </p>
          ) : (
            <TableScroll label={t('activity.usersTitle')}>
              <table className="data-table" data-testid="monitoring-top-users">
                <thead>
                  <tr>
                    <th scope="col">{t('activity.user')}</th>
                    <th scope="col" className="numeric">
                      {t('activity.events')}
                    </th>
                    <th scope="col" className="numeric">
                      {t('activity.bytes')}
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {first.users.map((user) => (
                    <tr key={user.user}>
                      <th scope="row">{user.user}</th>
                      <td className="numeric">{format.count(user.events)}</td>
                      <td className="numeric">{format.bytes(user.bytes)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
          )}
        </section>
      )}

      {first && (
        <section className="card resource-section" aria-labelledby="monitoring-events-title">
          <h2 id="monitoring-events-title" className="resource-section__title">
            {t('activity.eventsTitle')}
          </h2>
          {events.length === 0 ? (
            <p className="text-muted" data-testid="monitoring-events-none">
              {t('activity.eventsNone')}
            </p>
          ) : (
            <TableScroll label={t('activity.eventsTitle')}>
              <table className="data-table" data-testid="monitoring-events">
                <thead>
                  <tr>
                    <th scope="col">{t('activity.time')}</th>
                    <th scope="col">{t('activity.user')}</th>
                    <th scope="col">{t('activity.what')}</th>
                    <th scope="col">{t('activity.path')}</th>
                    <th scope="col" className="numeric">
                      {t('activity.bytes')}
                    </th>
                    <th scope="col">{t('activity.address')}</th>
                  </tr>
                </thead>
                <tbody>
                  {events.map((event) => (
                    <EventRow key={event.id} event={event} t={t} format={format} />
                  ))}
                </tbody>
              </table>
            </TableScroll>
          )}
          {activity.isFetchNextPageError && (
            <LoadFailure retry={activity.fetchNextPage} testId="monitoring-events-more-error" />
          )}
          {activity.hasNextPage && (
            <button
              type="button"
              className="btn btn--secondary monitoring-more"
              disabled={activity.isFetchingNextPage}
              onClick={() => void activity.fetchNextPage()}
              data-testid="monitoring-events-more"
            >
              {activity.isFetchingNextPage ? t('activity.loadingMore') : t('activity.loadMore')}
            </button>
          )}
        </section>
      )}
    </>
  );
}
