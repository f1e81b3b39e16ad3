// The chosen plan's configurator below the plan cards, loaded only once a plan is chosen: it
// brings the API client, the contract's schemas and @debesis/pricing, which the cards do without.
import { productSchema } from '@debesis/contract';
import { useTranslation } from 'react-i18next';
import { LoadFailed } from '../../components/LoadFailed.tsx';
import { PlanConfigurator } from './PlanConfigurator.tsx';
import { useProductConfig } from './quote.ts';

export function PlanConfiguratorSection({
  product: sent,
  focusOnMount,
}: {
  /** The plan as GET /products/ sent it. */
  product: unknown;
  focusOnMount: boolean;
}) {
  const { t } = useTranslation();
  const parsed = productSchema.safeParse(sent);
  const config = useProductConfig(parsed.success ? parsed.data.id : null);
  if (!parsed.success || config.isError) {
    return (
      <LoadFailed
        retryLabel={t('planPicker.retry')}
        query={parsed.success ? config : null}
        testId="plan-config-error"
      >
        {t('planPicker.configure.loadFailed')}
      </LoadFailed>
    );
  }
  if (config.isPending) {
    return (
      <p className="plans__status text-muted" role="status">
        {t('planPicker.configure.loading')}
      </p>
    );
  }
  return <PlanConfigurator product={parsed.data} config={config.data} focusOnMount={focusOnMount} />;
}
