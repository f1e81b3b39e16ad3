// The workspace's bandwidth this month of its billing period against its plan's (twice the disk,
// contract network.ts), for the overview and the monitoring tab: the figure, a bar, the month and
// what happens past 80 % and at the allowance (the network slowed, never cut).
import { BANDWIDTH_ALERT_PERCENT } from '@debesis/contract';
import { useTranslation } from 'react-i18next';
import '../../../i18n/workspace-messages.ts';
import { FormAlert } from '../../../components/form/fields.tsx';
import { formatBytes } from '../../../lib/format-bytes.ts';
import { useServiceNetwork } from '../../../workspace/network-api.ts';
import { formatDate } from '../../plans/format.ts';
import { UsageMeter } from '../UsageMeter.tsx';

export function BandwidthUsage({ serviceId, testId }: { serviceId: string; testId: string }) {
  const { t, i18n } = useTranslation('workspace');
  const network = useServiceNetwork(serviceId);
  const usage = network.data?.bandwidth;
  const language = i18n.language;
  return (
    <section className="card resource-section" aria-labelledby={`${testId}-title`} data-testid={testId}>
      <h2 id={`${testId}-title`} className="resource-section__title">
        {t('network.bandwidthTitle')}
      </h2>
      {network.isError && (
        <FormAlert tone="error" testId={`${testId}-error`}>
          {t('network.loadFailed')}
        </FormAlert>
      )}
      {network.data && !usage && <p className="text-muted">{t('network.notMeasured')}</p>}
      {usage && (
        <>
          <UsageMeter
            label={t('network.bandwidthLabel')}
            text={t('network.bandwidthText', {
              used: formatBytes(usage.used_bytes, language),
              limit: formatBytes(usage.limit_bytes, language),
              percent: usage.percent,
            })}
            used={usage.used_bytes}
            total={usage.limit_bytes}
            testId={`${testId}-meter`}
          />
          <p className="text-muted" data-testid={`${testId}-period`}>
            {t('network.bandwidthPeriod', {
              start: formatDate(usage.period_start, language),
              end: formatDate(usage.period_end, language),
              received: formatBytes(usage.received_bytes, language),
              sent: formatBytes(usage.sent_bytes, language),
            })}
          </p>
          {usage.throttled ? (
            <FormAlert tone="error" testId={`${testId}-throttled`}>
              {t('network.throttled', {
                rate: usage.throttle_kbit / 1000,
                end: formatDate(usage.period_end, language),
              })}
            </FormAlert>
          ) : (
            usage.percent >= BANDWIDTH_ALERT_PERCENT && (
              <FormAlert tone="warning" testId={`${testId}-warning`}>
                {t('network.bandwidthWarning', {
                  percent: usage.percent,
                  rate: usage.throttle_kbit / 1000,
                  end: formatDate(usage.period_end, language),
                })}
              </FormAlert>
            )
          )}
        </>
      )}
    </section>
  );
}
