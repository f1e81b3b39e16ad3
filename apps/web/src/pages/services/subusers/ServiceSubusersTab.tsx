// The service's subusers (spec §3 "Subuser", §4, §6; docs/features/subusers.md): the service ID to
// hand on, the list with each subuser's state, two-factor sign-in, last login and live sessions;
// per subuser a new password, enable/disable, the two-factor set-up (QR code and secret, a code
// from the app turns it on and shows the backup codes once), new backup codes, 2FA off, its
// sessions (end one or all) and delete. The list is asked again every 30 s.
import type { Subuser } from '@debesis/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { subusersApi, useSubusers } from '../../../workspace/subusers-api.ts';
import { useWorkspaceMutation } from '../../../workspace/workspace-resource.ts';
import { formatDateTime } from '../../activity/relative-time.ts';
import { CopyValue } from '../kit/CopyValue.tsx';
import { DataTable } from '../kit/DataTable.tsx';
import { ReportCard } from '../kit/ReportCard.tsx';
import { ConfirmAction, DeleteDialog, OperationError, RowAction } from '../resource-parts.tsx';
import { useServiceTab } from '../use-service-tab.ts';
import { BackupCodesDialog } from './BackupCodesDialog.tsx';
import { SubuserFormDialog } from './SubuserFormDialog.tsx';
import { SubuserSessionsDialog } from './SubuserSessionsDialog.tsx';
import { TwoFactorSetupDialog } from './TwoFactorSetupDialog.tsx';
import './subusers.css';

type AskedKind = 'password' | 'disable' | 'twoFactor' | 'twoFactorOff' | 'newCodes' | 'sessions' | 'delete';
type Asked = { kind: AskedKind; subuser: Subuser };

function SubuserActions({
  subuser,
  onAsk,
  onEnable,
}: {
  subuser: Subuser;
  onAsk: (kind: AskedKind) => void;
  onEnable: () => void;
}) {
  const { t } = useTranslation('subusersTab');
  const name = subuser.username;
  const action = (kind: AskedKind, label: string, danger = false) => (
    <RowAction
      label={label}
      target={name}
      danger={danger}
      onClick={() => onAsk(kind)}
      testId={`subuser-${kind}-${name}`}
    />
  );
  return (
    <div className="subusers__actions">
      {action('password', t('actions.password'))}
      {subuser.enabled ? (
        action('disable', t('actions.disable'))
      ) : (
        <RowAction
          label={t('actions.enable')}
          target={name}
          onClick={onEnable}
          testId={`subuser-enable-${name}`}
        />
      )}
      {subuser.two_factor_enabled ? (
        <>
          {action('newCodes', t('actions.newCodes'))}
          {action('twoFactorOff', t('actions.turnOffTwoFactor'))}
        </>
      ) : (
        action('twoFactor', t('actions.setUpTwoFactor'))
      )}
      {action('sessions', t('actions.sessions'))}
      {action('delete', t('actions.delete'), true)}
    </div>
  );
}

export function ServiceSubusersTab() {
  const { service } = useServiceTab('subusers');
  const serviceId = service.id;
  const { t, i18n } = useTranslation(['subusersTab', 'workspace']);
  const subusers = useSubusers(serviceId);
  const [creating, setCreating] = useState(false);
  const [asked, setAsked] = useState<Asked | null>(null);
  const [codes, setCodes] = useState<{ name: string; codes: string[] } | null>(null);
  const enable = useWorkspaceMutation((id: string) => subusersApi.setEnabled(serviceId, id, true));
  const close = () => setAsked(null);
  const name = asked?.subuser.username ?? '';
  return (
    <>
      <ReportCard
        id="subusers"
        title={t('title')}
        lead={t('lead')}
        add={{ label: t('add'), onClick: () => setCreating(true), testId: 'subuser-create' }}
        query={subusers}
        failure={t('loadFailed')}
      >
        {({ subusers: list, service_id: id }) => (
          <>
            {enable.isError && <OperationError error={enable.error} failure={t('failed.enable')} />}
            <div className="subusers__service-id">
              <p className="text-muted">{t('serviceId')}</p>
              <CopyValue value={id} what={t('copyServiceId')} testId="subusers-service-id" />
            </div>
            <DataTable
              label={t('title')}
              testId="subusers-table"
              empty={{ text: t('empty'), testId: 'subusers-empty' }}
              rows={list}
              rowKey={(subuser) => subuser.id}
              rowData={(subuser) => ({ 'data-testid': `subuser-row-${subuser.username}` })}
              columns={[
                { title: t('columns.username'), cell: (subuser) => subuser.username },
                {
                  title: t('columns.state'),
                  cell: (subuser) => (
                    <span
                      className={`badge ${subuser.enabled ? 'badge--success' : ''}`}
                      data-testid={`subuser-state-${subuser.username}`}
                    >
                      {subuser.enabled ? t('enabled') : t('disabled')}
                    </span>
                  ),
                },
                {
                  title: t('columns.twoFactor'),
                  data: (subuser) => ({
                    'data-testid': `subuser-2fa-state-${subuser.username}`,
                    'data-enabled': subuser.two_factor_enabled,
                  }),
                  cell: (subuser) => (
                    <>
                      <span className={`badge ${subuser.two_factor_enabled ? 'badge--success' : ''}`}>
                        {subuser.two_factor_enabled ? t('twoFactorOn') : t('twoFactorOff')}
                      </span>
                      {subuser.two_factor_enabled && (
                        <span className="text-muted subusers__codes">
                          {' '}
                          {t('codesLeft', { count: subuser.backup_codes_left })}
                        </span>
                      )}
                    </>
                  ),
                },
                {
                  title: t('columns.lastLogin'),
                  cell: (subuser) =>
                    subuser.last_login_at
                      ? formatDateTime(new Date(subuser.last_login_at), i18n.language)
                      : t('never'),
                },
                { title: t('columns.sessions'), numeric: true, cell: (subuser) => subuser.active_sessions },
                {
                  title: t('columns.actions'),
                  hideTitle: true,
                  cell: (subuser) => (
                    <SubuserActions
                      subuser={subuser}
                      onAsk={(kind) => setAsked({ kind, subuser })}
                      onEnable={() => enable.mutate(subuser.id)}
                    />
                  ),
                },
              ]}
            />
          </>
        )}
      </ReportCard>
      {creating && <SubuserFormDialog serviceId={serviceId} onClose={() => setCreating(false)} />}
      {asked?.kind === 'password' && (
        <SubuserFormDialog serviceId={serviceId} subuser={asked.subuser} onClose={close} />
      )}
      {asked?.kind === 'twoFactor' && (
        <TwoFactorSetupDialog
          serviceId={serviceId}
          subuser={asked.subuser}
          onClose={close}
          onEnabled={(made) => {
            close();
            setCodes({ name, codes: made });
          }}
        />
      )}
      {asked?.kind === 'sessions' && (
        <SubuserSessionsDialog serviceId={serviceId} subuser={asked.subuser} onClose={close} />
      )}
      {asked?.kind === 'disable' && (
        <ConfirmAction
          title={t('confirm.disableTitle', { name })}
          body={t('confirm.disableBody')}
          confirmLabel={t('actions.disable')}
          busyLabel={t('confirm.disabling')}
          failure={t('failed.disable')}
          run={() => subusersApi.setEnabled(serviceId, asked.subuser.id, false)}
          onClose={close}
          testId="subuser-disable-confirm"
        />
      )}
      {asked?.kind === 'twoFactorOff' && (
        <ConfirmAction
          title={t('twoFactor.turnOffTitle', { name })}
          body={t('twoFactor.turnOffBody')}
          confirmLabel={t('twoFactor.turnOff')}
          busyLabel={t('twoFactor.turningOff')}
          failure={t('failed.turnOff')}
          run={() => subusersApi.disableTwoFactor(serviceId, asked.subuser.id)}
          onClose={close}
          testId="subuser-2fa-off-confirm"
        />
      )}
      {asked?.kind === 'newCodes' && (
        <ConfirmAction
          title={t('twoFactor.newCodesTitle', { name })}
          body={t('twoFactor.newCodesBody')}
          confirmLabel={t('twoFactor.newCodes')}
          busyLabel={t('twoFactor.making')}
          failure={t('failed.codes')}
          run={() => subusersApi.renewBackupCodes(serviceId, asked.subuser.id)}
          onDone={(result) => setCodes({ name, codes: result.backup_codes })}
          onClose={close}
          testId="subuser-new-codes-confirm"
        />
      )}
      {asked?.kind === 'delete' && (
        <DeleteDialog
          title={t('confirm.deleteTitle', { name })}
          body={t('confirm.deleteBody')}
          failure={t('failed.delete')}
          remove={() => subusersApi.remove(serviceId, asked.subuser.id)}
          onClose={close}
          testId="subuser-delete-confirm"
        />
      )}
      {codes && <BackupCodesDialog name={codes.name} codes={codes.codes} onClose={() => setCodes(null)} />}
    </>
  );
}
