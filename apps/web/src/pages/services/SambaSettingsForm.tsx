// The workspace's Samba settings (spec §7 "Samba", POST /samba/{id}/settings): how the server is
// named on the network and the oldest protocol it speaks. A change reaches smb.conf's [global] on
// the node as a reload (no client is disconnected), so the form shows the apply status it gets.
import {
  SAMBA_MIN_PROTOCOLS,
  sambaSettingsRequestSchema,
  type SambaSettings,
  type SambaSettingsRequest,
} from '@debesis/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormAlert, InputField, SelectField } from '../../components/form/fields.tsx';
import { fieldErrorText, formErrorMap } from '../../forms/messages.ts';
import { sambaApi } from '../../workspace/samba-api.ts';
import { showServerFieldErrors, useWorkspaceMutation } from '../../workspace/workspace-resource.ts';
import { OperationError, SaveButton } from './resource-parts.tsx';

const FIELDS = ['workgroup', 'server_string', 'min_protocol'] as const;

export function SambaSettingsForm({ serviceId, settings }: { serviceId: string; settings: SambaSettings }) {
  const { t } = useTranslation(['sambaTab', 'workspace']);
  const { t: tApp } = useTranslation();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm<SambaSettingsRequest, unknown, SambaSettingsRequest>({
    resolver: zodResolver(sambaSettingsRequestSchema, { error: formErrorMap }),
    defaultValues: {
      workgroup: settings.workgroup,
      server_string: settings.server_string,
      min_protocol: settings.min_protocol,
    },
  });
  // The form then shows what the server kept (the workgroup in upper case, text trimmed).
  const save = useWorkspaceMutation(
    (values: SambaSettingsRequest) => sambaApi.updateSettings(serviceId, values),
    (saved) =>
      reset({
        workgroup: saved.workgroup,
        server_string: saved.server_string,
        min_protocol: saved.min_protocol,
      }),
  );
  return (
    <section className="card resource-section" aria-labelledby="samba-settings-title">
      <h2 id="samba-settings-title" className="resource-section__title">
        {t('samba.settingsTitle')}
      </h2>
      <form
        className="form"
        noValidate
        data-testid="samba-settings-form"
        onSubmit={(event) =>
          void handleSubmit((values) =>
            save.mutate(values, { onError: (error) => showServerFieldErrors(error, setError, FIELDS) }),
          )(event)
        }
      >
        {save.isSuccess && (
          <FormAlert tone="success" testId="samba-settings-saved">
            {t('samba.settingsSaved')}
          </FormAlert>
        )}
        {save.isError && (
          <OperationError
            error={save.error}
            failure={t('samba.settingsFailed')}
            testId="samba-settings-error"
          />
        )}
        <InputField
          id="samba-workgroup"
          label={t('samba.workgroup')}
          hint={t('samba.workgroupHint')}
          required
          maxLength={15}
          error={fieldErrorText(tApp, errors.workgroup?.message)}
          data-testid="samba-settings-workgroup"
          {...register('workgroup')}
        />
        <InputField
          id="samba-server-string"
          label={t('samba.serverString')}
          hint={t('samba.serverStringHint')}
          optional
          maxLength={64}
          error={fieldErrorText(tApp, errors.server_string?.message)}
          data-testid="samba-settings-server-string"
          {...register('server_string')}
        />
        <SelectField
          id="samba-min-protocol"
          label={t('samba.minProtocol')}
          hint={t('samba.minProtocolHint')}
          error={fieldErrorText(tApp, errors.min_protocol?.message)}
          data-testid="samba-settings-min-protocol"
          {...register('min_protocol')}
        >
          {SAMBA_MIN_PROTOCOLS.map((protocol) => (
            <option key={protocol} value={protocol}>
              {t(`samba.protocol_${protocol}`)}
            </option>
          ))}
        </SelectField>
        <SaveButton busy={save.isPending} testId="samba-settings-submit" />
      </form>
    </section>
  );
}
