// The workspace's VPN traffic over the last 24 hours (hourly bars), 7 or 30 days (daily bars),
// from GET traffic?range=. Plain SVG, no chart library (the tab's chunk stays small): each bar is
// what the server received from clients below what it sent to them, each with its own title for
// a pointer's hover; a sentence under the chart says the totals and the busiest bar, and names
// the chart for screen readers. The range chosen is in the address (`?traffic=7d`).
import { VPN_TRAFFIC_RANGES, type VpnTrafficRange, type VpnTrafficResponse } from '@debesis/contract';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { SegmentedChoice } from '../../../components/SegmentedChoice.tsx';
import { FormAlert } from '../../../components/form/fields.tsx';
import { localeOf } from '../../activity/relative-time.ts';
import { useVpnTraffic } from '../../../workspace/vpn-api.ts';
import { formatBytes } from '../service-parts.tsx';
import { SectionCard } from '../kit/SectionCard.tsx';

const RANGE_PARAM = 'traffic';
/** The chart's own units: a bar is BAR wide with GAP after it, the chart HEIGHT tall. */
const BAR = 8;
const GAP = 2;
const HEIGHT = 100;

function rangeOf(value: string | null): VpnTrafficRange {
  return VPN_TRAFFIC_RANGES.find((range) => range === value) ?? '24h';
}

type Bucket = VpnTrafficResponse['buckets'][number];

/** A bucket's start as the reader names it: the hour for 24 h, the day for 7 and 30 days. */
function bucketLabel(bucket: Bucket, range: VpnTrafficRange, language: string): string {
  const date = new Date(bucket.start);
  if (Number.isNaN(date.getTime())) return bucket.start;
  const options: Intl.DateTimeFormatOptions =
    range === '24h' ? { hour: '2-digit', minute: '2-digit' } : { month: 'short', day: 'numeric' };
  return new Intl.DateTimeFormat(localeOf(language), options).format(date);
}

export function VpnTrafficChart({ serviceId }: { serviceId: string }) {
  const { t, i18n } = useTranslation('vpnTab');
  const summaryId = useId();
  const [params, setParams] = useSearchParams();
  const range = rangeOf(params.get(RANGE_PARAM));
  const traffic = useVpnTraffic(serviceId, range);
  const setRange = (next: VpnTrafficRange) =>
    setParams(
      (current) => {
        const changed = new URLSearchParams(current);
        if (next === '24h') changed.delete(RANGE_PARAM);
        else changed.set(RANGE_PARAM, next);
        return changed;
      },
      { replace: true },
    );
  const language = i18n.language;
  const bytes = (value: number) => formatBytes(value, language);
  const buckets = traffic.data?.range === range ? traffic.data.buckets : [];
  const totals = buckets.map((bucket) => bucket.bytes_sent + bucket.bytes_received);
  const top = Math.max(0, ...totals);
  const sent = buckets.reduce((sum, bucket) => sum + bucket.bytes_sent, 0);
  const received = buckets.reduce((sum, bucket) => sum + bucket.bytes_received, 0);
  const busiest = buckets[totals.indexOf(top)];
  const scale = (value: number) => (top === 0 ? 0 : (value / top) * HEIGHT);
  const width = buckets.length * (BAR + GAP);

  return (
    <SectionCard
      id="vpn-traffic"
      title={t('vpn.trafficTitle')}
      lead={t('vpn.trafficLead')}
      actions={
        <SegmentedChoice
          options={VPN_TRAFFIC_RANGES}
          value={range}
          onChange={setRange}
          label={t('vpn.trafficRange')}
          testId="vpn-traffic-range"
          optionTestId={(option) => `vpn-traffic-range-${option}`}
          renderOption={(option) => t(`vpn.range_${option}`)}
        />
      }
    >
      {traffic.isPending && (
        <p className="text-muted" role="status">
          {t('vpn.trafficLoading')}
        </p>
      )}
      {traffic.isError && (
        <FormAlert tone="error" testId="vpn-traffic-load-error">
          {t('vpn.trafficLoadFailed')}
        </FormAlert>
      )}
      {traffic.isSuccess && (
        <figure className="vpn-chart" data-testid="vpn-traffic-chart">
          {top > 0 && (
            <svg
              className="vpn-chart__bars"
              viewBox={`0 0 ${width} ${HEIGHT}`}
              preserveAspectRatio="none"
              role="img"
              aria-labelledby={summaryId}
            >
              {buckets.map((bucket, index) => {
                const x = index * (BAR + GAP);
                const receivedHeight = scale(bucket.bytes_received);
                const sentHeight = scale(bucket.bytes_sent);
                return (
                  <g key={bucket.start} data-testid="vpn-traffic-bar">
                    <title>
                      {t('vpn.trafficBar', {
                        when: bucketLabel(bucket, range, language),
                        received: bytes(bucket.bytes_received),
                        sent: bytes(bucket.bytes_sent),
                      })}
                    </title>
                    <rect
                      className="vpn-chart__received"
                      x={x}
                      y={HEIGHT - receivedHeight}
                      width={BAR}
                      height={receivedHeight}
                    />
                    <rect
                      className="vpn-chart__sent"
                      x={x}
                      y={HEIGHT - receivedHeight - sentHeight}
                      width={BAR}
                      height={sentHeight}
                    />
                  </g>
                );
              })}
            </svg>
          )}
          {top > 0 && buckets.length > 0 && (
            <div className="vpn-chart__axis" aria-hidden="true">
              <span>{bucketLabel(buckets[0] as Bucket, range, language)}</span>
              <span>{bucketLabel(buckets.at(-1) as Bucket, range, language)}</span>
            </div>
          )}
          {top > 0 && (
            <ul className="vpn-chart__legend" aria-hidden="true">
              <li>
                <span className="vpn-chart__swatch vpn-chart__received" />
                {t('vpn.received')}
              </li>
              <li>
                <span className="vpn-chart__swatch vpn-chart__sent" />
                {t('vpn.sent')}
              </li>
            </ul>
          )}
          <figcaption id={summaryId} data-testid="vpn-traffic-summary">
            {top === 0 || !busiest
              ? t('vpn.trafficNone', { range: t(`vpn.rangeLong_${range}`) })
              : t('vpn.trafficSummary', {
                  range: t(`vpn.rangeLong_${range}`),
                  total: bytes(sent + received),
                  received: bytes(received),
                  sent: bytes(sent),
                  when: bucketLabel(busiest, range, language),
                  busiest: bytes(top),
                })}
          </figcaption>
        </figure>
      )}
    </SectionCard>
  );
}
