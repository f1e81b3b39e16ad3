// The VPN users (spec §3 "VPN user", §4): each with its status, whether it is connected, its
// traffic this month against its limit, and its actions — edit, reset password, enable/disable,
// disconnect (when online), revoke (after confirming), download its configuration, set up a
// phone, delete (after confirming). VPN users are accounts of their own (not the service's Unix
// users), as many as the plan has users.
import type { VpnSession, VpnUser, VpnUsersResponse } from '@debesis/contract';
import { useMutation, type UseQueryResult } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormAlert } from '../../../components/form/fields.tsx';
import { formatDateTime } from '../../activity/relative-time.ts';
import { downloadVpnConfig, vpnApi } from '../../../workspace/vpn-api.ts';
import { useWorkspaceMutation } from '../../../workspace/workspace-resource.ts';
import { Facts, ResourceCrud } from '../kit/ResourceCrud.tsx';
import { ResourceFormDialog } from '../kit/ResourceFormDialog.tsx';
import { ConfirmAction, OperationError, RowAction } from '../resource-parts.tsx';
import { formatBytes } from '../service-parts.tsx';
import { UsageMeter } from '../UsageMeter.tsx';
import { OnlineDot, Since, useNow, VpnStatusBadge } from './vpn-parts.tsx';
import { NEW_PASSWORD, VpnUserDialog } from './VpnUserDialog.tsx';
import { VpnPhoneDialog } from './VpnPhoneDialog.tsx';
import { passwordFormSchema } from '../workspace-forms.ts';

type RowActionKind = 'enable' | 'disable' | 'disconnect';
type Other = { kind: 'password' | 'revoke' | 'phone'; user: VpnUser };

function TrafficMeter({ user }: { user: VpnUser }) {
  const { t, i18n } = useTranslation('vpnTab');
  const used = formatBytes(user.traffic_used_bytes, i18n.language);
  const testId = `vpn-user-${user.username}-traffic`;
  if (user.traffic_limit_bytes === 0) {
    return <span data-testid={testId}>{t('vpn.trafficUnlimited', { used })}</span>;
  }
  return (
    <UsageMeter
      label={t('vpn.trafficLabel', { name: user.username })}
      text={t('vpn.trafficOf', { used, limit: formatBytes(user.traffic_limit_bytes, i18n.language) })}
      used={user.traffic_used_bytes}
      total={user.traffic_limit_bytes}
      testId={testId}
    />
  );
}

export function VpnUsersSection({
  serviceId,
  users,
  sessions,
}: {
  serviceId: string;
  users: UseQueryResult<VpnUsersResponse>;
  /** The live sessions, once loaded. */
  sessions: readonly VpnSession[] | undefined;
}) {
  const { t, i18n } = useTranslation(['vpnTab', 'workspace']);
  const now = useNow();
  const [other, setOther] = useState<Other | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const list = users.data?.users ?? [];
  const limit = users.data?.limit ?? null;
  const full = limit !== null && list.length >= limit;
  const close = () => setOther(null);

  // Its result: how many sessions a disconnect ended.
  const action = useWorkspaceMutation(
    async ({ kind, user }: { kind: RowActionKind; user: VpnUser }): Promise<number> => {
      if (kind === 'disconnect') return (await vpnApi.disconnect(serviceId, user.id)).disconnected;
      await vpnApi.updateUser(serviceId, user.id, { enabled: kind === 'enable' });
      return 0;
    },
    (ended, { kind, user }) => {
      const name = user.username;
      setDone(
        kind === 'disconnect'
          ? t('vpn.disconnected', { name, count: ended })
          : t(kind === 'enable' ? 'vpn.enabledDone' : 'vpn.disabledDone', { name }),
      );
    },
  );
  // A download changes nothing: no lists to refresh.
  const download = useMutation({
    mutationFn: (user: VpnUser) => downloadVpnConfig(serviceId, user.id, user.username),
  });
  const startAction = (kind: RowActionKind, user: VpnUser) => {
    setDone(null);
    action.mutate({ kind, user });
  };
  const busy = (kind: RowActionKind, user: VpnUser) =>
    action.isPending && action.variables.kind === kind && action.variables.user.id === user.id;

  // The sessions are asked for every 2 s, the users only after a change: a user's dot and
  // addresses follow its latest session once they are here.
  const connectionOf = (user: VpnUser) => {
    if (!sessions) {
      return {
        online: user.online,
        real: user.real_ip,
        virtual: user.virtual_ip,
        since: user.connected_since,
      };
    }
    const latest = sessions
      .filter((session) => session.user_id === user.id)
      .sort((a, b) => b.connected_since.localeCompare(a.connected_since))[0];
    return latest
      ? {
          online: true,
          real: latest.real_address,
          virtual: latest.virtual_address,
          since: latest.connected_since,
        }
      : { online: false, real: null, virtual: null, since: null };
  };
  const idOf = (username: string) => list.find((user) => user.username === username)?.id ?? username;

  return (
    <>
      <ResourceCrud
        section={{
          title: t('vpn.usersTitle'),
          lead: t('vpn.usersLead'),
          ...(limit !== null && { counter: t('vpn.counter', { count: list.length, limit }) }),
          // Full: no Add, the notice says why (a user can still be edited).
          ...(!full && { addLabel: t('vpn.add') }),
          notice: (
            <>
              {full && (
                <p className="text-muted" data-testid="vpn-users-full">
                  {t('vpn.full', { count: limit })}
                </p>
              )}
              {done && (
                <FormAlert tone="success" testId="vpn-users-done">
                  {done}
                </FormAlert>
              )}
              {action.isError && (
                <OperationError
                  error={action.error}
                  failure={t(`vpn.${action.variables.kind}Failed`)}
                  testId="vpn-users-action-error"
                />
              )}
              {download.isError && (
                <OperationError
                  error={download.error}
                  failure={t('vpn.downloadFailed')}
                  testId="vpn-users-download-error"
                />
              )}
            </>
          ),
          loadFailed: t('vpn.usersLoadFailed'),
          emptyText: t('vpn.usersEmpty'),
          testId: 'vpn-users',
        }}
        load={users}
        items={list}
        nameOf={(user) => user.username}
        row="vpn-user"
        ready={users.isSuccess}
        badges={(user) => <VpnStatusBadge user={user} />}
        details={(user) => {
          const connection = connectionOf(user);
          return (
            <Facts
              facts={[
                user.full_name && { label: t('vpn.fullName'), value: user.full_name },
                user.email && { label: t('vpn.email'), value: user.email },
                {
                  label: t('vpn.connection'),
                  value: (
                    <>
                      <OnlineDot online={connection.online} testId={`vpn-user-${user.username}-online`} />
                      {connection.since && (
                        <>
                          {' · '}
                          {t('vpn.onlineFrom', {
                            real: connection.real ?? '?',
                            virtual: connection.virtual ?? '?',
                          })}{' '}
                          <Since at={connection.since} now={now} />
                        </>
                      )}
                    </>
                  ),
                },
                {
                  label: t('vpn.trafficMonth'),
                  value: <TrafficMeter user={user} />,
                },
                user.over_limit && {
                  label: t('vpn.overLimitLabel'),
                  value: t('vpn.overLimit'),
                  testId: `vpn-user-${user.username}-over-limit`,
                },
                user.revoked_at && {
                  label: t('vpn.revokedLabel'),
                  value: t('vpn.revokedAt', {
                    date: formatDateTime(new Date(user.revoked_at), i18n.language),
                  }),
                },
              ]}
            />
          );
        }}
        actions={(user) => (
          <>
            <RowAction
              label={t('vpn.resetPassword')}
              target={user.username}
              onClick={() => setOther({ kind: 'password', user })}
              testId={`vpn-user-${user.username}-password`}
            />
            <RowAction
              label={
                user.enabled
                  ? busy('disable', user)
                    ? t('vpn.disabling')
                    : t('vpn.disable')
                  : busy('enable', user)
                    ? t('vpn.enabling')
                    : t('vpn.enable')
              }
              target={user.username}
              disabled={action.isPending}
              onClick={() => startAction(user.enabled ? 'disable' : 'enable', user)}
              testId={`vpn-user-${user.username}-toggle`}
            />
            {connectionOf(user).online && (
              <RowAction
                label={busy('disconnect', user) ? t('vpn.disconnecting') : t('vpn.disconnect')}
                target={user.username}
                disabled={action.isPending}
                onClick={() => startAction('disconnect', user)}
                testId={`vpn-user-${user.username}-disconnect`}
              />
            )}
            <RowAction
              label={t('vpn.revoke')}
              target={user.username}
              onClick={() => setOther({ kind: 'revoke', user })}
              testId={`vpn-user-${user.username}-revoke`}
            />
            <RowAction
              label={
                download.isPending && download.variables.id === user.id
                  ? t('vpn.downloading')
                  : t('vpn.download')
              }
              target={user.username}
              disabled={download.isPending}
              onClick={() => {
                setDone(null);
                download.mutate(user);
              }}
              testId={`vpn-user-${user.username}-download`}
            />
            <RowAction
              label={t('vpn.phone')}
              target={user.username}
              onClick={() => setOther({ kind: 'phone', user })}
              testId={`vpn-user-${user.username}-phone`}
            />
          </>
        )}
        dialog={(user, closeDialog) => (
          <VpnUserDialog
            serviceId={serviceId}
            user={user}
            onSaved={(name, created) =>
              setDone(created ? t('vpn.createdDone', { name }) : t('vpn.updatedDone', { name }))
            }
            onClose={closeDialog}
          />
        )}
        remove={{
          title: (name) => t('vpn.deleteTitle', { name }),
          body: t('vpn.deleteBody'),
          failure: t('vpn.deleteFailed'),
          run: (name) => vpnApi.deleteUser(serviceId, idOf(name)),
        }}
      />
      {other?.kind === 'password' && (
        <ResourceFormDialog
          title={t('vpn.passwordTitle', { name: other.user.username })}
          schema={passwordFormSchema}
          defaultValues={{ password: '', confirm: '' }}
          save={async (values) => {
            await vpnApi.resetPassword(serviceId, other.user.id, values.password);
            setDone(t('vpn.passwordDone', { name: other.user.username }));
          }}
          failure={t('vpn.passwordFailed')}
          submitLabel={t('vpn.savePassword')}
          testIds={{
            dialog: 'vpn-password-dialog',
            error: 'vpn-password-error',
            submit: 'vpn-password-submit',
          }}
          onClose={close}
          fields={(f) => [
            f.text('password', 'vpn-password-password', t('vpn.password'), {
              hint: t('vpn.passwordResetHint'),
              input: NEW_PASSWORD,
            }),
            f.text('confirm', 'vpn-password-confirm', t('vpn.confirmPassword'), { input: NEW_PASSWORD }),
          ]}
        />
      )}
      {other?.kind === 'revoke' && (
        <ConfirmAction
          title={t('vpn.revokeTitle', { name: other.user.username })}
          body={t('vpn.revokeBody')}
          confirmLabel={t('vpn.revoke')}
          busyLabel={t('vpn.revoking')}
          failure={t('vpn.revokeFailed')}
          run={() => vpnApi.revoke(serviceId, other.user.id)}
          onDone={() => setDone(t('vpn.revokedDone', { name: other.user.username }))}
          onClose={close}
          testId="vpn-revoke-dialog"
        />
      )}
      {other?.kind === 'phone' && <VpnPhoneDialog serviceId={serviceId} user={other.user} onClose={close} />}
    </>
  );
}
