// /dashboard/services/{id}/settings (spec §2 "settings"): the service's name and description
// (PUT /services/{id}) and the settings of GET/PUT /services/{id}/config (expiry reminders).
// Plan, disk and users are changed on the plans page.
import { serviceConfigUpdateSchema, type ServiceConfig } from '@debesis/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { z } from 'zod';
import { CheckboxField, FormAlert, InputField } from '../../components/form/fields.tsx';
import { useDocumentTitle } from '../../components/useDocumentTitle.ts';
import { fieldErrorText, formErrorMap } from '../../forms/messages.ts';
import { serviceLifecycleApi } from '../../services/service-lifecycle-api.ts';
import { workspaceKeys } from '../../workspace/workspace-keys.ts';
import { showServerFieldErrors, useWorkspaceMutation } from '../../workspace/workspace-resource.ts';
import { planChangePath } from '../plan-changes/plan-facts.ts';
import { OperationError, SaveButton } from './resource-parts.tsx';
import { useServiceDetail } from './service-context.ts';

const { name: nameField, description: descriptionField } = serviceConfigUpdateSchema.shape;
const generalFormSchema = z.object({ name: nameField.unwrap(), description: descriptionField.unwrap() });
type GeneralFormValues = z.infer<typeof generalFormSchema>;

function GeneralForm({ serviceId, config }: { serviceId: string; config: ServiceConfig }) {
  const { t } = useTranslation('workspace');
  const { t: tApp } = useTranslation();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<GeneralFormValues>({
    resolver: zodResolver(generalFormSchema, { error: formErrorMap }),
    defaultValues: { name: config.name, description: config.description },
  });
  const update = useWorkspaceMutation((values: GeneralFormValues) =>
    serviceLifecycleApi.update(serviceId, values),
  );
  return (
    <section className="card resource-section" aria-labelledby="service-general-title">
      <h2 id="service-general-title" className="resource-section__title">
        {t('serviceSettings.generalTitle')}
      </h2>
      <form
        className="form"
        noValidate
        data-testid="service-general-form"
        onSubmit={(event) =>
          void handleSubmit((values) =>
            update.mutate(values, {
              onError: (error) => showServerFieldErrors(error, setError, ['name', 'description']),
            }),
          )(event)
        }
      >
        {update.isSuccess && (
          <FormAlert tone="success" testId="service-general-saved">
            {t('serviceSettings.saved')}
          </FormAlert>
        )}
        {update.isError && (
          <OperationError
            error={update.error}
            failure={t('serviceSettings.updateFailed')}
            testId="service-general-error"
          />
        )}
        <InputField
          id="service-name"
          label={t('serviceSettings.name')}
          required
          error={fieldErrorText(tApp, errors.name?.message)}
          data-testid="service-settings-name"
          {...register('name')}
        />
        <InputField
          id="service-description"
          label={t('serviceSettings.description')}
          optional
          error={fieldErrorText(tApp, errors.description?.message)}
          data-testid="service-settings-description"
          {...register('description')}
        />
        <SaveButton busy={update.isPending} testId="service-general-submit" />
      </form>
    </section>
  );
}

function RemindersForm({ serviceId, config }: { serviceId: string; config: ServiceConfig }) {
  const { t } = useTranslation('workspace');
  const { register, handleSubmit } = useForm<{ expiry_reminders: boolean }>({
    defaultValues: { expiry_reminders: config.expiry_reminders },
  });
  const configure = useWorkspaceMutation((values: { expiry_reminders: boolean }) =>
    serviceLifecycleApi.configure(serviceId, values),
  );
  return (
    <section className="card resource-section" aria-labelledby="service-reminders-title">
      <h2 id="service-reminders-title" className="resource-section__title">
        {t('serviceSettings.remindersTitle')}
      </h2>
      <form
        className="form"
        noValidate
        data-testid="service-reminders-form"
        onSubmit={(event) => void handleSubmit((values) => configure.mutate(values))(event)}
      >
        {configure.isSuccess && (
          <FormAlert tone="success" testId="service-reminders-saved">
            {t('serviceSettings.saved')}
          </FormAlert>
        )}
        {configure.isError && (
          <OperationError
            error={configure.error}
            failure={t('serviceSettings.configureFailed')}
            testId="service-reminders-error"
          />
        )}
        <CheckboxField
          id="service-expiry-reminders"
          label={t('serviceSettings.expiryReminders')}
          hint={t('serviceSettings.expiryRemindersHint')}
          data-testid="service-expiry-reminders"
          {...register('expiry_reminders')}
        />
        <SaveButton busy={configure.isPending} testId="service-reminders-submit" />
      </form>
    </section>
  );
}

export function ServiceSettingsTab() {
  const { t } = useTranslation('workspace');
  const { service } = useServiceDetail();
  useDocumentTitle(`${t('serviceDetail.tabSettings')} · ${service.name}`);
  const config = useQuery({
    queryKey: workspaceKeys.config(service.id),
    queryFn: () => serviceLifecycleApi.config(service.id),
  });
  return (
    <div className="service-tab-stack">
      {config.isPending && (
        <p className="text-muted" role="status">
          {t('resource.loading')}
        </p>
      )}
      {config.isError && (
        <FormAlert tone="error" testId="service-config-load-error">
          {t('serviceSettings.loadFailed')}{' '}
          <button type="button" className="btn btn--ghost" onClick={() => void config.refetch()}>
            {t('resource.retry')}
          </button>
        </FormAlert>
      )}
      {config.data && (
        <>
          <GeneralForm serviceId={service.id} config={config.data} />
          <RemindersForm serviceId={service.id} config={config.data} />
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
    </div>
  );
}
