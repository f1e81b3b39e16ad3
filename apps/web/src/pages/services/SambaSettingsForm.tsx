// The workspace's Samba settings (spec §7 "Samba", POST /samba/{id}/settings): how the server is
// named on the network and the oldest protocol it speaks. A change reaches smb.conf's [global] on
// the node as a reload (no client is disconnected), so the form shows the apply status it gets.
import { SAMBA_MIN_PROTOCOLS, sambaSettingsRequestSchema, type SambaSettings } from '@debesis/contract';
import { useTranslation } from 'react-i18next';
import { sambaApi } from '../../workspace/samba-api.ts';
import { SettingsFormCard } from './kit/SettingsFormCard.tsx';

const valuesOf = ({ workgroup, server_string, min_protocol }: SambaSettings) => ({
  workgroup,
  server_string,
  min_protocol,
});

export function SambaSettingsForm({ serviceId, settings }: { serviceId: string; settings: SambaSettings }) {
  const { t } = useTranslation('sambaTab');
  return (
    <SettingsFormCard
      title={t('samba.settingsTitle')}
      saved={t('samba.settingsSaved')}
      failure={t('samba.settingsFailed')}
      testId="samba-settings"
      schema={sambaSettingsRequestSchema}
      defaultValues={valuesOf(settings)}
      save={(values) => sambaApi.updateSettings(serviceId, values)}
      // The form then shows what the server kept (the workgroup in upper case, text trimmed).
      shown={valuesOf}
      fields={(f) => [
        f.text('workgroup', 'samba-workgroup', t('samba.workgroup'), {
          hint: t('samba.workgroupHint'),
          input: { required: true, maxLength: 15 },
          testId: 'samba-settings-workgroup',
        }),
        f.text('server_string', 'samba-server-string', t('samba.serverString'), {
          hint: t('samba.serverStringHint'),
          optional: true,
          input: { maxLength: 64 },
          testId: 'samba-settings-server-string',
        }),
        f.select(
          'min_protocol',
          'samba-min-protocol',
          t('samba.minProtocol'),
          SAMBA_MIN_PROTOCOLS.map((value) => ({ value, label: t(`samba.protocol_${value}`) })),
          { hint: t('samba.minProtocolHint'), testId: 'samba-settings-min-protocol' },
        ),
      ]}
    />
  );
}
