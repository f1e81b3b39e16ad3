// /dashboard/services/{id}/labels: the workspace's labels (key=value, the contract's labels.ts),
// with which the owner groups and finds workspaces: the list sorted by key, add, change a value,
// remove. Labels stay in the API, so a row has no apply status: a change is done when it is saved.
import { LABEL_LIMIT } from '@debesis/contract';
import { useTranslation } from 'react-i18next';
import { Facts, ResourceCrud } from '../kit/ResourceCrud.tsx';
import { useServiceTab } from '../use-service-tab.ts';
import { labelForm } from './label-form.ts';
import { labelsApi, useLabels } from './labels-api.ts';

export function ServiceLabelsTab() {
  const { t } = useTranslation('labelsTab');
  const { service } = useServiceTab('labels');
  const labels = useLabels(service.id);
  const items = labels.data?.labels ?? [];
  return (
    <div className="service-tab-stack">
      <ResourceCrud
        section={{
          title: t('title'),
          lead: t('lead'),
          ...(labels.data && { counter: t('counter', { count: items.length, limit: LABEL_LIMIT }) }),
          addLabel: t('add'),
          loadFailed: t('loadFailed'),
          emptyText: t('empty'),
          testId: 'labels',
        }}
        load={labels}
        items={items}
        nameOf={(label) => label.key}
        row="label"
        // Full (the counter says so), Add stays: the server's label_limit says why in the dialog,
        // and Edit, which `ready` would hold too, must stay open.
        ready={labels.isSuccess}
        details={(label) => (
          <Facts
            facts={[
              {
                label: t('value'),
                value:
                  label.value === '' ? (
                    <span className="text-muted">{t('noValue')}</span>
                  ) : (
                    <code>{label.value}</code>
                  ),
                testId: `label-${label.key}-value`,
              },
            ]}
          />
        )}
        form={labelForm(service.id, t)}
        remove={{
          title: (name) => t('deleteTitle', { name }),
          body: t('deleteBody'),
          failure: t('deleteFailed'),
          run: (key) => labelsApi.remove(service.id, key),
        }}
      />
    </div>
  );
}
