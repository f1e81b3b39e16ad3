// /dashboard/services/{id}/ftp-advanced (spec §2 "ftp-advanced": advanced FTP settings, PUT
// /ftp/{id}/settings): FTP and SFTP on or off, the passive port range, how many clients at once
// (in all and per user), the idle timeout and whether TLS is required. The form checks what the
// server checks (the contract's schema: ports 1024–65535, two passive ports per client, limits of
// at least 1), so a refusal shows on its field before anything is sent; anonymous FTP is never
// offered, and the form says so.
import {
  FTP_DEFAULT_SETTINGS,
  ftpSettingsRequestSchema,
  type FtpSettings,
  type FtpSettingsRequest,
} from '@debesis/contract';
import { useTranslation } from 'react-i18next';
import { ftpApi, useFtpSettings } from '../../../workspace/ftp-api.ts';
import { startValues } from '../kit/form-fields.tsx';
import { SettingsFormCard } from '../kit/SettingsFormCard.tsx';
import { OperationError } from '../resource-parts.tsx';
import { useServiceTab } from '../use-service-tab.ts';
import './ftp.css';

const valuesOf = (settings: FtpSettings): FtpSettingsRequest => startValues(FTP_DEFAULT_SETTINGS, settings);

export function ServiceFtpAdvancedTab() {
  const { t } = useTranslation(['ftpTab', 'workspace']);
  const { service } = useServiceTab('ftp-advanced');
  const settings = useFtpSettings(service.id);
  return (
    <div className="service-tab-stack">
      {settings.isPending && (
        <p className="text-muted" role="status">
          {t('advanced.loading')}
        </p>
      )}
      {settings.isError && (
        <OperationError
          error={settings.error}
          failure={t('advanced.loadFailed')}
          testId="ftp-settings-load-error"
        />
      )}
      {settings.data && (
        <SettingsFormCard
          title={t('advanced.title')}
          saved={t('advanced.saved')}
          failure={t('advanced.failed')}
          testId="ftp-settings"
          schema={ftpSettingsRequestSchema}
          defaultValues={valuesOf(settings.data)}
          save={(values) => ftpApi.updateSettings(service.id, values)}
          shown={valuesOf}
          fields={(f) => [
            {
              kind: 'custom',
              key: 'lead',
              render: () => (
                <p className="text-muted" data-testid="ftp-settings-lead">
                  {t('advanced.lead')}
                </p>
              ),
            },
            f.group(t('advanced.servers'), 'ftp-servers', [
              f.checkbox(
                'ftp_enabled',
                'ftp-settings-ftp-enabled',
                t('advanced.ftpEnabled'),
                t('advanced.ftpEnabledHint'),
              ),
              f.checkbox(
                'sftp_enabled',
                'ftp-settings-sftp-enabled',
                t('advanced.sftpEnabled'),
                t('advanced.sftpEnabledHint'),
              ),
            ]),
            f.number('passive_port_min', 'ftp-settings-passive-min', t('advanced.passivePortMin'), {
              hint: t('advanced.passiveHint'),
              min: 1024,
              max: 65535,
            }),
            f.number('passive_port_max', 'ftp-settings-passive-max', t('advanced.passivePortMax'), {
              min: 1024,
              max: 65535,
            }),
            f.number('max_clients', 'ftp-settings-max-clients', t('advanced.maxClients'), {
              min: 1,
              max: 10_000,
            }),
            f.number('max_clients_per_user', 'ftp-settings-max-per-user', t('advanced.maxClientsPerUser'), {
              min: 1,
              max: 1000,
            }),
            f.number('idle_timeout_minutes', 'ftp-settings-idle-timeout', t('advanced.idleTimeout'), {
              hint: t('advanced.idleTimeoutHint'),
              min: 1,
              max: 1440,
            }),
            f.checkbox(
              'tls_required',
              'ftp-settings-tls-required',
              t('advanced.tlsRequired'),
              t('advanced.tlsRequiredHint'),
            ),
            {
              kind: 'custom',
              key: 'anonymous',
              render: () => (
                <p className="text-muted" data-testid="ftp-settings-anonymous">
                  {t('advanced.anonymous')}
                </p>
              ),
            },
          ]}
        />
      )}
    </div>
  );
}
