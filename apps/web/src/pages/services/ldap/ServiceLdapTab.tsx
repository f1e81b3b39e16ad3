// /dashboard/services/{id}/ldap (spec §7 "LDAP"): the workspace's read-only LDAP directory: whether
// the node serves it, how applications connect (with copy buttons), the bind account's password
// (shown once) and anonymous reads, the directory's readable alias (a second base DN), and the users' suspensions and expiry dates, one by one or
// for many at once.
import {
  ldapAliasSchema,
  type LdapBulkOperation,
  type LdapStatus,
  type LdapUserStatus,
} from '@debesis/contract';
import { useMutation, useQueryClient, type UseMutationResult } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { isApiError, serverMessage } from '../../../api/api-error.ts';
import { BusyButton } from '../../../components/form/BusyButton.tsx';
import { FormAlert, InputField } from '../../../components/form/fields.tsx';
import { useContractForm } from '../../../forms/use-contract-form.ts';
import { ldapApi, useLdapConfig, useLdapStatus, useLdapUsers } from '../../../workspace/ldap-api.ts';
import { workspaceKeys } from '../../../workspace/workspace-keys.ts';
import { DaemonStatusCard, type DaemonReport } from '../kit/DaemonStatusCard.tsx';
import { CopyValue } from '../kit/CopyValue.tsx';
import { DataTable } from '../kit/DataTable.tsx';
import './ldap.css';
import { useServiceTab } from '../use-service-tab.ts';

type Translate = TFunction<['ldapTab', 'workspace']>;

const messageOf = (error: unknown): string =>
  (isApiError(error) ? serverMessage(error) : null) ??
  (error instanceof Error ? error.message : String(error));

function reportOf(status: LdapStatus): DaemonReport {
  return {
    placed: status.placed,
    live: status.running,
    reason: status.reason,
    apply_status: status.apply_status,
  };
}

/** One connection detail: its name, and its value to copy. */
function ConnectionValue({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd>
        <CopyValue value={value} what={label} testId={testId} />
      </dd>
    </div>
  );
}

function stateOf(user: LdapUserStatus, t: Translate): string {
  if (user.apply_status === 'applying') return t('ldap.applying');
  if (!user.active) return t('ldap.inactive');
  if (user.suspended) return t('ldap.suspended');
  if (user.expired) return t('ldap.expired');
  return t('ldap.canBind');
}

export function ServiceLdapTab() {
  const { t } = useTranslation(['ldapTab', 'workspace']);
  const { service } = useServiceTab('ldap');
  const queryClient = useQueryClient();
  const status = useLdapStatus(service.id);
  const config = useLdapConfig(service.id);
  const users = useLdapUsers(service.id);
  const [password, setPassword] = useState<string | null>(null);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [bulkDate, setBulkDate] = useState('');
  const [dates, setDates] = useState<Record<string, string>>({});
  const [notice, setNotice] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: workspaceKeys.all(service.id) });
  const done = (text: string) => {
    setNotice({ tone: 'success', text });
    return refresh();
  };
  const failed = (error: unknown) =>
    setNotice({ tone: 'error', text: t('ldap.failed', { message: messageOf(error) }) });

  const bind = useMutation({
    mutationFn: (body: { rotate_password?: boolean; anonymous_read?: boolean }) =>
      ldapApi.bindSettings(service.id, body),
    onSuccess: (answer) => {
      if (answer.password) setPassword(answer.password);
      return done(t('ldap.saved'));
    },
    onError: failed,
  });
  const change = useMutation({
    mutationFn: (run: () => Promise<unknown>) => run(),
    onSuccess: () => done(t('ldap.saved')),
    onError: failed,
  });
  const bulk = useMutation({
    mutationFn: (operation: LdapBulkOperation) =>
      ldapApi.bulkUpdate(service.id, {
        users: [...selected],
        operation,
        ...(operation === 'set_expiry' ? { expiry_date: bulkDate } : {}),
      }),
    onSuccess: (answer) => {
      setSelected(new Set());
      return done(t('ldap.bulkDone', { count: answer.changed }));
    },
    onError: failed,
  });
  const alias = useMutation({
    mutationFn: (value: string | null) => ldapApi.alias(service.id, value),
    onSuccess: () => done(t('ldap.saved')),
    // A refusal of the alias itself is said under its field (the alias form puts it there).
    onError: (error) => {
      if (!(isApiError(error) && error.fieldErrors.alias)) failed(error);
    },
  });
  const busy = bind.isPending || change.isPending || bulk.isPending || alias.isPending;
  const savedAlias = config.data?.alias ?? null;

  const bulkLabels = {
    suspend: t('ldap.bulkSuspend'),
    unsuspend: t('ldap.bulkUnsuspend'),
    set_expiry: t('ldap.bulkSetExpiry'),
    clear_expiry: t('ldap.bulkClearExpiry'),
  } satisfies Record<LdapBulkOperation, string>;
  /** One operation on the selected users; `waits`: it still lacks what it needs (a date). */
  const bulkButton = (operation: LdapBulkOperation, waits = false) => (
    <button
      type="button"
      className="btn btn--secondary btn--small"
      disabled={busy || selected.size === 0 || waits}
      onClick={() => bulk.mutate(operation)}
      data-testid={`ldap-bulk-${operation.replace('_', '-')}`}
    >
      {bulkLabels[operation]}
    </button>
  );

  const data = status.data;
  const list = users.data?.users ?? [];
  const toggle = (name: string) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(name)) next.delete(name);
      else next.add(name);
      return next;
    });

  return (
    <div className="service-tab-stack">
      <DaemonStatusCard
        title={t('ldap.serverTitle')}
        name="OpenLDAP"
        status={{ data: data && reportOf(data), isPending: status.isPending, isError: status.isError }}
        words={{
          serving: () => t('ldap.live'),
          notServing: (reason) => (reason ? t('ldap.notLiveReason', { reason }) : t('ldap.notLive')),
          waiting: () => t('ldap.waitingForNode'),
          notPlaced: () => t('ldap.notPlaced'),
        }}
        address={{
          label: t('ldap.address'),
          value: data?.address ?? null,
          shown: (host) => `${host}:${data?.port ?? ''} / ${data?.ldaps_port ?? ''}`,
          testId: 'ldap-address',
        }}
        facts={
          data
            ? [
                {
                  label: t('ldap.entries'),
                  value:
                    data.users === null
                      ? t('ldap.never')
                      : t('ldap.entriesValue', { users: data.users, groups: data.groups ?? 0 }),
                  testId: 'ldap-entries',
                },
                {
                  label: t('ldap.lastSync'),
                  value: data.synced_at ? new Date(data.synced_at).toLocaleString() : t('ldap.never'),
                  testId: 'ldap-synced',
                },
              ]
            : []
        }
        testId="ldap"
        notNeeded={data && (data.enabled ? null : t('ldap.notEnabled'))}
      />

      {notice && (
        <FormAlert tone={notice.tone} testId={`ldap-notice-${notice.tone}`}>
          {notice.text}
        </FormAlert>
      )}

      <section className="card" aria-labelledby="ldap-connection-title">
        <h2 id="ldap-connection-title" className="resource-section__title">
          {t('ldap.connectionTitle')}
        </h2>
        <p>{t('ldap.tls')}</p>
        {config.data && (
          <dl className="detail-list">
            {config.data.uris.map((uri, index) => (
              <ConnectionValue key={uri} label={t('ldap.uri')} value={uri} testId={`ldap-uri-${index}`} />
            ))}
            <ConnectionValue label={t('ldap.baseDn')} value={config.data.base_dn} testId="ldap-base-dn" />
            {config.data.base_dn_alias && (
              <ConnectionValue
                label={t('ldap.baseDnAlias')}
                value={config.data.base_dn_alias}
                testId="ldap-base-dn-alias"
              />
            )}
            <ConnectionValue label={t('ldap.usersDn')} value={config.data.users_dn} testId="ldap-users-dn" />
            <ConnectionValue
              label={t('ldap.groupsDn')}
              value={config.data.groups_dn}
              testId="ldap-groups-dn"
            />
            <ConnectionValue label={t('ldap.bindDn')} value={config.data.bind_dn} testId="ldap-bind-dn" />
          </dl>
        )}
        {config.data && (
          // A new alias saved (or removed) starts the form again from it.
          <AliasForm key={savedAlias ?? ''} saved={savedAlias} busy={busy} save={alias} />
        )}
      </section>

      <section className="card ldap-bind" aria-labelledby="ldap-bind-title">
        <h2 id="ldap-bind-title" className="resource-section__title">
          {t('ldap.bindTitle')}
        </h2>
        <p data-testid="ldap-bind-password-state">
          {config.data?.bind_password_set ? t('ldap.bindPasswordSet') : t('ldap.bindPasswordNone')}
        </p>
        {password && (
          <FormAlert tone="success" testId="ldap-new-password">
            {t('ldap.newPassword')}{' '}
            <CopyValue value={password} what={t('ldap.bindPassword')} testId="ldap-new-password-value" />
          </FormAlert>
        )}
        <BusyButton
          busy={bind.isPending}
          label={t('ldap.rotate')}
          busyLabel={t('ldap.rotating')}
          type="button"
          className="btn btn--secondary"
          disabled={busy}
          onClick={() => bind.mutate({ rotate_password: true })}
          testId="ldap-rotate"
        />
        <label className="form-check">
          <input
            type="checkbox"
            checked={config.data?.anonymous_read ?? false}
            disabled={busy || !config.data}
            onChange={(event) => bind.mutate({ anonymous_read: event.target.checked })}
            data-testid="ldap-anonymous"
          />{' '}
          {t('ldap.anonymous')}
        </label>
      </section>

      <section className="card" aria-labelledby="ldap-users-title">
        <h2 id="ldap-users-title" className="resource-section__title">
          {t('ldap.usersTitle')}
        </h2>
        {list.length === 0 ? (
          <p>{t('ldap.noUsers')}</p>
        ) : (
          <>
            <div className="ldap-bulk" data-testid="ldap-bulk">
              <span>{t('ldap.selected', { count: selected.size })}</span> {bulkButton('suspend')}{' '}
              {bulkButton('unsuspend')}{' '}
              <input
                type="date"
                aria-label={t('ldap.bulkDate')}
                value={bulkDate}
                onChange={(event) => setBulkDate(event.target.value)}
                data-testid="ldap-bulk-date"
              />{' '}
              {bulkButton('set_expiry', bulkDate === '')} {bulkButton('clear_expiry')}
            </div>
            <DataTable
              label={t('ldap.usersTitle')}
              testId="ldap-users"
              rows={list}
              rowKey={(user) => user.username}
              rowData={(user) => ({ 'data-testid': `ldap-user-${user.username}` })}
              rowHeader={false}
              columns={[
                {
                  title: t('ldap.selectAll'),
                  header: (
                    <input
                      type="checkbox"
                      aria-label={t('ldap.selectAll')}
                      checked={selected.size === list.length}
                      onChange={(event) =>
                        setSelected(new Set(event.target.checked ? list.map((user) => user.username) : []))
                      }
                      data-testid="ldap-select-all"
                    />
                  ),
                  cell: (user) => (
                    <input
                      type="checkbox"
                      aria-label={t('ldap.select', { name: user.username })}
                      checked={selected.has(user.username)}
                      onChange={() => toggle(user.username)}
                      data-testid={`ldap-select-${user.username}`}
                    />
                  ),
                },
                { title: t('ldap.user'), cell: (user) => user.username },
                {
                  title: t('ldap.state'),
                  data: (user) => ({ 'data-testid': `ldap-state-${user.username}` }),
                  cell: (user) => stateOf(user, t),
                },
                {
                  title: t('ldap.expiry'),
                  cell: (user) => {
                    const date = dates[user.username] ?? user.expiry_date ?? '';
                    return (
                      <>
                        <input
                          type="date"
                          aria-label={t('ldap.expiryFor', { name: user.username })}
                          value={date}
                          onChange={(event) =>
                            setDates((current) => ({ ...current, [user.username]: event.target.value }))
                          }
                          data-testid={`ldap-expiry-${user.username}`}
                        />{' '}
                        <button
                          type="button"
                          className="btn btn--secondary btn--small"
                          disabled={busy || date === '' || date === user.expiry_date}
                          onClick={() => change.mutate(() => ldapApi.expiry(service.id, user.username, date))}
                          data-testid={`ldap-set-expiry-${user.username}`}
                        >
                          {t('ldap.setExpiry')}
                        </button>{' '}
                        {user.expiry_date && (
                          <button
                            type="button"
                            className="btn btn--secondary btn--small"
                            disabled={busy}
                            onClick={() => {
                              setDates((current) => ({ ...current, [user.username]: '' }));
                              change.mutate(() => ldapApi.expiry(service.id, user.username, null));
                            }}
                            data-testid={`ldap-clear-expiry-${user.username}`}
                          >
                            {t('ldap.clearExpiry')}
                          </button>
                        )}
                      </>
                    );
                  },
                },
                {
                  title: '',
                  cell: (user) => (
                    <button
                      type="button"
                      className="btn btn--secondary btn--small"
                      disabled={busy}
                      onClick={() =>
                        change.mutate(() => ldapApi.suspend(service.id, user.username, !user.suspended))
                      }
                      data-testid={`ldap-suspend-${user.username}`}
                    >
                      {user.suspended ? t('ldap.unsuspend') : t('ldap.suspend')}
                    </button>
                  ),
                },
              ]}
            />
          </>
        )}
      </section>
    </div>
  );
}

const aliasFormSchema = z.object({ alias: ldapAliasSchema });

/**
 * The directory's readable alias, checked with the contract's rule so that a typo is named before
 * anything is sent; the server's refusal lands under the field. `saved`: the alias now, null: none.
 */
function AliasForm({
  saved,
  busy,
  save,
}: {
  saved: string | null;
  busy: boolean;
  save: UseMutationResult<unknown, unknown, string | null>;
}) {
  const { t } = useTranslation(['ldapTab', 'workspace']);
  const form = useContractForm({ schema: aliasFormSchema, defaultValues: { alias: saved ?? '' } });
  const typed = useWatch({ control: form.control, name: 'alias' });
  const change = {
    mutate: (values: { alias: string }, options: { onError: (error: unknown) => void }) =>
      save.mutate(values.alias, options),
  };
  return (
    <form className="ldap-alias" noValidate onSubmit={form.submitTo(change)}>
      <InputField
        id="ldap-alias"
        label={t('ldap.alias')}
        maxLength={63}
        autoComplete="off"
        spellCheck={false}
        hint={
          <>
            {typed ? t('ldap.aliasHint', { alias: typed }) : t('ldap.aliasNone')} {t('ldap.aliasMoves')}
          </>
        }
        data-testid="ldap-alias-input"
        {...form.field('alias')}
      />
      <button
        type="submit"
        className="btn btn--secondary"
        disabled={busy || typed === (saved ?? '')}
        data-testid="ldap-alias-save"
      >
        {t('ldap.aliasSave')}
      </button>{' '}
      {saved && (
        <button
          type="button"
          className="btn btn--secondary"
          disabled={busy}
          onClick={() => save.mutate(null, { onError: form.showServerErrors })}
          data-testid="ldap-alias-remove"
        >
          {t('ldap.aliasRemove')}
        </button>
      )}
    </form>
  );
}
