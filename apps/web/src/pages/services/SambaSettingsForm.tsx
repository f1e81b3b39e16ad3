// The workspace's Samba settings (spec §7 "Samba", POST /samba/{id}/settings): how the server is
// named on the network and the oldest protocol it speaks. A change reaches smb.conf's [global] on
// the node as a reload (no client is disconnected), so the form shows the apply status it gets.
import {
  SAMBA_MIN_PROTOCOLS,
  sambaSettingsRequestSchema,
  type SambaSettings,
  type SambaSettingsRequest,
} from '@debesis/contract';
import { useTranslation } from 'react-i18next';
import { InputField, SelectField } from '../../components/form/fields.tsx';
import { useContractForm } from '../../forms/use-contract-form.ts';
import { sambaApi } from '../../workspace/samba-api.ts';
import { useWorkspaceMutation } from '../../workspace/workspace-resource.ts';
import { SettingsCard } from './resource-parts.tsx';

const valuesOf = ({ workgroup, server_string, min_protocol }: SambaSettings) => ({
  workgroup,
  server_string,
  min_protocol,
});

export function SambaSettingsForm({ serviceId, settings }: { serviceId: string; settings: SambaSettings }) {
  const { t } = useTranslation('sambaTab');
  const form = useContractForm({ schema: sambaSettingsRequestSchema, defaultValues: valuesOf(settings) });
  // The form then shows what the server kept (the workgroup in upper case, text trimmed).
  const save = useWorkspaceMutation(
    (values: SambaSettingsRequest) => sambaApi.updateSettings(serviceId, values),
    (saved) => form.reset(valuesOf(saved)),
  );
  return (
    <SettingsCard
      title={t('samba.settingsTitle')}
      saved={t('samba.settingsSaved')}
      failure={t('samba.settingsFailed')}
      change={save}
      onSubmit={form.submitTo(save)}
      testId="samba-settings"
    >
      <InputField
        id="samba-workgroup"
        label={t('samba.workgroup')}
        hint={t('samba.workgroupHint')}
        required
        maxLength={15}
        data-testid="samba-settings-workgroup"
        {...form.field('workgroup')}
      />
      <InputField
        id="samba-server-string"
        label={t('samba.serverString')}
        hint={t('samba.serverStringHint')}
        optional
        maxLength={64}
        data-testid="samba-settings-server-string"
        {...form.field('server_string')}
      />
      <SelectField
        id="samba-min-protocol"
        label={t('samba.minProtocol')}
        hint={t('samba.minProtocolHint')}
        data-testid="samba-settings-min-protocol"
        {...form.field('min_protocol')}
      >
        {SAMBA_MIN_PROTOCOLS.map((protocol) => (
          <option key={protocol} value={protocol}>
            {t(`samba.protocol_${protocol}`)}
          </option>
        ))}
      </SelectField>
    </SettingsCard>
  );
}
