// The monitoring tab's storage: the disk's use over the window chosen (GET quota?hours, one point
// an hour), how fast it grows and when, at that pace, it is full, and who owns what on it.
import type { ServiceQuotaResponse } from '@debesis/contract';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useServiceQuota } from '../../../workspace/monitoring-api.ts';
import { RelativeTime, useNow } from '../kit/RelativeTime.tsx';
import { DataTable } from '../kit/DataTable.tsx';
import { Facts } from '../kit/ResourceCrud.tsx';
import {
  MonitoringSection,
  sourceColor,
  unixSeconds,
  useFormats,
  useWindowChoice,
  WindowChoiceBar,
  type Formats,
  type Translate,
  type WindowChoice,
} from './monitoring-parts.tsx';
import { TimeSeriesChart } from './TimeSeriesChart.tsx';

function summaryOf(quota: ServiceQuotaResponse, choice: WindowChoice, t: Translate, format: Formats) {
  const window = t(`window.long_${choice}`);
  const first = quota.trend[0];
  const last = quota.trend.at(-1);
  if (!first || !last) return t('storage.summaryNone', { window });
  return t('storage.summary', {
    window,
    from: format.bytes(first.used_bytes),
    to: format.bytes(last.used_bytes),
    size: format.bytes(quota.size_bytes),
  });
}

function growthText(quota: ServiceQuotaResponse, t: Translate, format: Formats): string {
  const growth = quota.growth_bytes_per_day;
  if (growth === null) return t('storage.growthUnknown');
  if (growth > 0) return t('storage.growing', { bytes: format.bytes(growth) });
  if (growth < 0) return t('storage.shrinking', { bytes: format.bytes(-growth) });
  return t('storage.steady');
}

function fullText(quota: ServiceQuotaResponse, t: Translate): string {
  if (quota.full_in_days === null) return t('storage.notFilling');
  const days = Math.max(0, Math.floor(quota.full_in_days));
  return days === 0 ? t('storage.fullToday') : t('storage.fullIn', { count: days });
}

export function MonitoringStorage({ serviceId }: { serviceId: string }) {
  const { t } = useTranslation(['monitoringTab', 'workspace']);
  const format = useFormats();
  const now = useNow();
  // Real time is activity's alone: here it reads as the default window.
  const [choice, setChoice] = useWindowChoice(false);
  const hours = Number(choice);
  const quota = useServiceQuota(serviceId, hours);
  const data = quota.data;
  const chart = useMemo(
    () =>
      data && {
        times: data.trend.map((point) => unixSeconds(point.at)),
        series: [
          {
            label: t('storage.used'),
            values: data.trend.map((point) => point.used_bytes),
            color: sourceColor(0),
          },
        ],
      },
    [data, t],
  );

  const share = (bytes: number) =>
    data && data.used_bytes > 0
      ? t('storage.percent', { percent: format.decimal((bytes / data.used_bytes) * 100) })
      : '';

  return (
    <>
      <MonitoringSection
        id="monitoring-storage"
        title={t('storage.title')}
        lead={t('storage.lead')}
        actions={<WindowChoiceBar value={choice} onChange={setChoice} realtime={false} />}
        load={quota}
      >
        {data && chart && (
          <>
            <TimeSeriesChart
              label={t('storage.chartLabel', { window: t(`window.long_${choice}`) })}
              summary={summaryOf(data, choice, t, format)}
              times={chart.times}
              series={chart.series}
              kind="area"
              formatValue={format.bytes}
              testId="monitoring-storage-chart"
            />
            <Facts
              className="service-facts"
              testId="monitoring-storage-facts"
              facts={[
                {
                  label: t('storage.usedNow'),
                  value: t('storage.usedOf', {
                    used: format.bytes(data.used_bytes),
                    size: format.bytes(data.size_bytes),
                    percent: format.decimal(data.used_percent),
                  }),
                },
                {
                  label: t('storage.growth'),
                  value: growthText(data, t, format),
                  testId: 'monitoring-growth',
                },
                { label: t('storage.full'), value: fullText(data, t), testId: 'monitoring-full-in' },
                { label: t('storage.files'), value: format.count(data.files) },
              ]}
            />
          </>
        )}
      </MonitoringSection>

      {data && (
        <MonitoringSection id="monitoring-owners" title={t('storage.ownersTitle')}>
          {data.users === null ? (
            <p className="text-muted" data-testid="monitoring-owners-none">
              {t('storage.ownersNotCounted')}
            </p>
          ) : (
            <>
              <DataTable
                label={t('storage.ownersTitle')}
                testId="monitoring-owners"
                rows={data.users}
                rowKey={(user) => user.user}
                rowData={(user) => ({ 'data-testid': `monitoring-owner-${user.user}` })}
                columns={[
                  { title: t('activity.user'), cell: (user) => user.user },
                  { title: t('storage.bytes'), numeric: true, cell: (user) => format.bytes(user.bytes) },
                  { title: t('storage.files'), numeric: true, cell: (user) => format.count(user.files) },
                  { title: t('storage.share'), numeric: true, cell: (user) => share(user.bytes) },
                ]}
                after={
                  data.other_bytes !== null &&
                  data.other_bytes > 0 && (
                    <tr data-testid="monitoring-owner-other">
                      <th scope="row">{t('storage.other')}</th>
                      <td className="numeric">{format.bytes(data.other_bytes)}</td>
                      <td className="numeric" />
                      <td className="numeric">{share(data.other_bytes)}</td>
                    </tr>
                  )
                }
              />
              {data.users_measured_at !== null && (
                <p className="text-muted">
                  {t('storage.counted')}{' '}
                  <RelativeTime at={data.users_measured_at} now={now} justNow={t('justNow')} />
                </p>
              )}
            </>
          )}
        </MonitoringSection>
      )}
    </>
  );
}
