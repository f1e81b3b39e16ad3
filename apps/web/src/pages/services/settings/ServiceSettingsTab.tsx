// /dashboard/services/{id}/settings (spec §2 "settings"): the service's name and description
// (PUT /services/{id}), the settings of GET/PUT /services/{id}/config (expiry reminders), and
// ending it: cancel (its data kept SERVICE_CANCELLED_RETENTION_DAYS, then deleted) or terminate
// (its data deleted now), each confirmed with the date its data is lost, and refused in the
// states the lifecycle refuses them (the API's `actions`) with the spec's message.
// Plan, disk and users are changed on the plans page.
import {
  RENEWAL_LEAD_DAYS,
  SERVICE_CANCELLED_RETENTION_DAYS,
  serviceConfigUpdateSchema,
  type ServiceConfig,
  type ServiceOverviewItem,
} from '@debesis/contract';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { z } from 'zod';
import { Dialog } from '../../../components/dialog/Dialog.tsx';
import { InputField } from '../../../components/form/fields.tsx';
import { serviceLifecycleApi } from '../../../services/service-lifecycle-api.ts';
import { workspaceKeys } from '../../../workspace/workspace-keys.ts';
import { useWorkspaceMutation } from '../../../workspace/workspace-resource.ts';
import { planChangePath } from '../../plan-changes/plan-facts.ts';
import { formatDate } from '../../plans/format.ts';
import { GoesDownList } from '../GoesDownList.tsx';
import { SettingsFormCard } from '../kit/SettingsFormCard.tsx';
import { OperationError } from '../resource-parts.tsx';
import { useServiceTab } from '../use-service-tab.ts';
import { BusyButton } from '../../../components/form/BusyButton.tsx';
import { LoadFailed } from '../../../components/LoadFailed.tsx';

const { name: nameField, description: descriptionField } = serviceConfigUpdateSchema.shape;
const generalFormSchema = z.object({ name: nameField.unwrap(), description: descriptionField.unwrap() });

function GeneralForm({ serviceId, config }: { serviceId: string; config: ServiceConfig }) {
  const { t } = useTranslation(['settingsTab', 'workspace']);
  return (
    <SettingsFormCard
      title={t('serviceSettings.generalTitle')}
      saved={t('serviceSettings.saved')}
      failure={t('serviceSettings.updateFailed')}
      testId="service-general"
      schema={generalFormSchema}
      defaultValues={{ name: config.name, description: config.description }}
      save={(values) => serviceLifecycleApi.update(serviceId, values)}
      fields={(f) => [
        f.text('name', 'service-name', t('serviceSettings.name'), {
          input: { required: true },
          testId: 'service-settings-name',
        }),
        f.text('description', 'service-description', t('serviceSettings.description'), {
          optional: true,
          testId: 'service-settings-description',
        }),
      ]}
    />
  );
}

const remindersFormSchema = z.object({ expiry_reminders: z.boolean() });

function RemindersForm({ serviceId, config }: { serviceId: string; config: ServiceConfig }) {
  const { t } = useTranslation(['settingsTab', 'workspace']);
  return (
    <SettingsFormCard
      title={t('serviceSettings.remindersTitle')}
      saved={t('serviceSettings.saved')}
      failure={t('serviceSettings.configureFailed')}
      testId="service-reminders"
      schema={remindersFormSchema}
      defaultValues={{ expiry_reminders: config.expiry_reminders }}
      save={(values) => serviceLifecycleApi.configure(serviceId, values)}
      fields={(f) => [
        f.checkbox(
          'expiry_reminders',
          'service-expiry-reminders',
          t('serviceSettings.expiryReminders'),
          t('serviceSettings.expiryRemindersHint'),
        ),
      ]}
    />
  );
}

const renewalFormSchema = z.object({ auto_renew: z.boolean() });

/** Automatic renewal with the kept card (PATCH /services/{id} `{ auto_renew }`). */
function RenewalForm({ serviceId, config }: { serviceId: string; config: ServiceConfig }) {
  const { t } = useTranslation(['settingsTab', 'workspace']);
  return (
    <SettingsFormCard
      title={t('serviceSettings.renewalTitle')}
      saved={t('serviceSettings.saved')}
      failure={t('serviceSettings.configureFailed')}
      testId="service-renewal"
      schema={renewalFormSchema}
      defaultValues={{ auto_renew: config.auto_renew }}
      save={(values) => serviceLifecycleApi.setAutoRenew(serviceId, values.auto_renew)}
      fields={(f) => [
        f.checkbox(
          'auto_renew',
          'service-auto-renew',
          t('serviceSettings.autoRenew'),
          t('serviceSettings.autoRenewHint', { days: RENEWAL_LEAD_DAYS }),
        ),
      ]}
    />
  );
}

const DAY_MS = 86_400_000;
type Ending = 'cancel' | 'terminate';

/**
 * Cancel or terminate, confirmed in a dialog naming the date the data is lost. Terminating
 * deletes at once, so the name is typed as well.
 */
function EndDialog({
  service,
  ending,
  onClose,
}: {
  service: ServiceOverviewItem;
  ending: Ending;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation(['settingsTab', 'workspace']);
  const [typed, setTyped] = useState('');
  const [mismatch, setMismatch] = useState(false);
  const end = useWorkspaceMutation(() => serviceLifecycleApi.end(service.id, ending), onClose);
  const cancel = ending === 'cancel';
  // The moment the dialog opened: the date named is the one confirming now would give.
  const [openedAt] = useState(() => Date.now());
  const lostOn = formatDate(
    new Date(openedAt + (cancel ? SERVICE_CANCELLED_RETENTION_DAYS * DAY_MS : 0)),
    i18n.language,
  );
  return (
    <Dialog
      title={t(cancel ? 'serviceSettings.cancelConfirmTitle' : 'serviceSettings.terminateConfirmTitle', {
        name: service.name,
      })}
      description={
        <>
          <p data-testid={`service-${ending}-loss`}>
            {t(cancel ? 'serviceSettings.cancelConfirmBody' : 'serviceSettings.terminateConfirmBody', {
              date: lostOn,
            })}
          </p>
          <GoesDownList service={service} testId={`service-${ending}-goes-down`} />
        </>
      }
      role="alertdialog"
      onClose={onClose}
      testId={`service-${ending}-dialog`}
    >
      <form
        className="form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (!cancel && typed.trim() !== service.name) {
            setMismatch(true);
            return;
          }
          end.mutate();
        }}
      >
        {end.isError && (
          <OperationError
            error={end.error}
            failure={t(cancel ? 'serviceSettings.cancelFailed' : 'serviceSettings.terminateFailed')}
            testId={`service-${ending}-error`}
          />
        )}
        {!cancel && (
          <InputField
            id="service-terminate-name"
            label={t('serviceSettings.terminateTypeName')}
            autoComplete="off"
            value={typed}
            onChange={(event) => {
              setTyped(event.target.value);
              setMismatch(false);
            }}
            error={mismatch ? t('serviceSettings.terminateNameMismatch', { name: service.name }) : undefined}
            data-testid="service-terminate-name"
          />
        )}
        <div className="button-row dialog__actions">
          <BusyButton
            busy={end.isPending}
            label={t(cancel ? 'serviceSettings.cancel' : 'serviceSettings.terminate')}
            busyLabel={t(cancel ? 'serviceSettings.cancelling' : 'serviceSettings.terminating')}
            className="btn btn--danger"
            testId={`service-${ending}-confirm`}
          />
          <button
            type="button"
            className="btn btn--ghost"
            data-autofocus={cancel ? true : undefined}
            onClick={onClose}
            disabled={end.isPending}
          >
            {t('serviceSettings.keep')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/** Ending the service; each way refused (disabled, with the spec's words) where the lifecycle refuses it. */
function EndService({ service }: { service: ServiceOverviewItem }) {
  const { t } = useTranslation(['settingsTab', 'workspace']);
  const { t: tApp } = useTranslation();
  const [ending, setEnding] = useState<Ending | null>(null);
  const canCancel = service.actions.includes('cancel');
  const canTerminate = service.actions.includes('terminate');
  return (
    <section className="card resource-section" aria-labelledby="service-end-title" data-testid="service-end">
      <h2 id="service-end-title" className="resource-section__title">
        {t('serviceSettings.endTitle')}
      </h2>
      <p className="text-muted">{t('serviceSettings.endLead')}</p>
      {(!canCancel || !canTerminate) && (
        <p className="text-muted" data-testid="service-end-refused">
          {tApp('errors.service_cannot_cancel')}
        </p>
      )}
      <ul className="plain-list text-muted">
        <li>
          <strong>{t('serviceSettings.cancel')}:</strong>{' '}
          {t('serviceSettings.cancelHint', { days: SERVICE_CANCELLED_RETENTION_DAYS })}
        </li>
        <li>
          <strong>{t('serviceSettings.terminate')}:</strong> {t('serviceSettings.terminateHint')}
        </li>
      </ul>
      <div className="button-row">
        <button
          type="button"
          className="btn btn--danger-outline"
          disabled={!canCancel}
          onClick={() => setEnding('cancel')}
          data-testid="service-cancel"
        >
          {t('serviceSettings.cancel')}
        </button>
        <button
          type="button"
          className="btn btn--danger"
          disabled={!canTerminate}
          onClick={() => setEnding('terminate')}
          data-testid="service-terminate"
        >
          {t('serviceSettings.terminate')}
        </button>
      </div>
      {ending && <EndDialog service={service} ending={ending} onClose={() => setEnding(null)} />}
    </section>
  );
}

export function ServiceSettingsTab() {
  const { t } = useTranslation(['settingsTab', 'workspace']);
  const { service } = useServiceTab('settings');
  const config = useQuery({
    queryKey: workspaceKeys.config(service.id),
    queryFn: () => serviceLifecycleApi.config(service.id),
  });
  return (
    <div className="service-tab-stack">
      {config.isPending && (
        <p className="text-muted" role="status">
          {t('workspace:resource.loading')}
        </p>
      )}
      {config.isError && (
        <LoadFailed
          testId="service-config-load-error"
          query={config}
          retryLabel={t('workspace:resource.retry')}
        >
          {t('serviceSettings.loadFailed')}
        </LoadFailed>
      )}
      {config.data && (
        <>
          <GeneralForm serviceId={service.id} config={config.data} />
          <RemindersForm serviceId={service.id} config={config.data} />
          <RenewalForm serviceId={service.id} config={config.data} />
        </>
      )}
      <section className="card resource-section" aria-labelledby="service-plan-title">
        <h2 id="service-plan-title" className="resource-section__title">
          {t('serviceSettings.planTitle')}
        </h2>
        <p className="text-muted">{t('serviceSettings.planBody', { plan: service.plan })}</p>
        <Link
          to={planChangePath(service.id)}
          className="btn btn--secondary"
          data-testid="service-change-plan"
        >
          {t('serviceSettings.changePlan')}
        </Link>
      </section>
      <EndService service={service} />
    </div>
  );
}
