// /dashboard/services/{id}/monitoring (spec §3 `monitoring`: "Overview, activity, storage and
// health views"): the service's monitoring in four views, the one shown kept in the address
// (`?view=activity`, the overview left out) so a link or a reload opens it again. Each view asks
// only for what it shows (workspace/monitoring-api.ts).
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { SegmentedChoice } from '../../../components/SegmentedChoice.tsx';
import { useServiceTab } from '../use-service-tab.ts';
import { MonitoringActivity } from './MonitoringActivity.tsx';
import { MonitoringHealth } from './MonitoringHealth.tsx';
import { MonitoringOverview } from './MonitoringOverview.tsx';
import { MonitoringStorage } from './MonitoringStorage.tsx';
import './monitoring.css';

const VIEWS = ['overview', 'activity', 'storage', 'health'] as const;
type View = (typeof VIEWS)[number];
const VIEW_PARAM = 'view';

function viewOf(value: string | null): View {
  return VIEWS.find((view) => view === value) ?? 'overview';
}

function ViewContent({ view, serviceId }: { view: View; serviceId: string }) {
  switch (view) {
    case 'overview':
      return <MonitoringOverview serviceId={serviceId} />;
    case 'activity':
      return <MonitoringActivity serviceId={serviceId} />;
    case 'storage':
      return <MonitoringStorage serviceId={serviceId} />;
    case 'health':
      return <MonitoringHealth serviceId={serviceId} />;
  }
}

export function ServiceMonitoringTab() {
  const { t } = useTranslation('monitoringTab');
  const { service } = useServiceTab('monitoring');
  const [params, setParams] = useSearchParams();
  const view = viewOf(params.get(VIEW_PARAM));
  const setView = (next: View) =>
    setParams(
      (current) => {
        const changed = new URLSearchParams(current);
        if (next === 'overview') changed.delete(VIEW_PARAM);
        else changed.set(VIEW_PARAM, next);
        return changed;
      },
      { replace: true },
    );
  return (
    <div className="service-tab-stack monitoring">
      <div className="monitoring__head">
        <h2 className="visually-hidden">{t('title')}</h2>
        <SegmentedChoice
          options={VIEWS}
          value={view}
          onChange={setView}
          label={t('views')}
          testId="monitoring-views"
          optionTestId={(option) => `monitoring-view-choice-${option}`}
          renderOption={(option) => t(`view.${option}`)}
        />
      </div>
      <div className="service-tab-stack" data-testid={`monitoring-view-${view}`}>
        <ViewContent key={view} view={view} serviceId={service.id} />
      </div>
    </div>
  );
}
