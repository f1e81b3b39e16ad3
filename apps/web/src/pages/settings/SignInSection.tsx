// How the owner signs in: the email address (changed by a link to the new address, which the
// server mails; the old address is told) and the password (the current one required; every
// other session ends, this one stays).
import {
  changeEmailResponseSchema,
  messageResponseSchema,
  type ChangeEmailResponse,
  type User,
} from '@debesis/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client.ts';
import { FormAlert } from '../../components/form/fields.tsx';
import { EmailField, NewPasswordFields, PasswordField, SubmitRow } from '../../forms/account-fields.tsx';
import { useContractForm } from '../../forms/use-contract-form.ts';
import { useLanguage } from '../../i18n/language.ts';
import { formatDateTime } from '../activity/relative-time.ts';
import {
  CHANGE_EMAIL_PATH,
  CHANGE_PASSWORD_PATH,
  emailChangeFormSchema,
  failureText,
  passwordChangeFormSchema,
  type EmailChangeFormValues,
  type PasswordChangeFormValues,
} from './account-forms.ts';
import { SESSIONS_QUERY_KEY } from './SessionsSection.tsx';
import { SettingsSection } from './SettingsSection.tsx';

export function EmailSection({ user }: { user: User }) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const [sent, setSent] = useState<ChangeEmailResponse | null>(null);
  const form = useContractForm({
    schema: emailChangeFormSchema,
    defaultValues: { new_email: '', current_password: '' },
  });
  const change = useMutation({
    mutationFn: (values: EmailChangeFormValues) =>
      api.post(
        CHANGE_EMAIL_PATH,
        { new_email: values.new_email.trim(), current_password: values.current_password },
        changeEmailResponseSchema,
      ),
    onSuccess: (answer) => {
      setSent(answer);
      form.reset();
    },
  });

  return (
    <SettingsSection name="email" title={t('accountSettings.email.title')}>
      <p data-testid="settings-email-current">{t('accountSettings.email.current', { email: user.email })}</p>
      {!user.has_password ? (
        <FormAlert tone="info" testId="settings-email-no-password">
          {t('accountSettings.email.noPassword')}
        </FormAlert>
      ) : (
        <>
          <p className="text-muted">{t('accountSettings.email.lead')}</p>
          <form
            className="form settings-form"
            noValidate
            data-testid="settings-email-form"
            onSubmit={form.submitTo(change)}
          >
            {sent && (
              <FormAlert tone="success" testId="settings-email-sent">
                {t('accountSettings.email.sent', {
                  email: sent.new_email,
                  until: formatDateTime(new Date(sent.expires_at), language),
                  current: user.email,
                })}
              </FormAlert>
            )}
            {change.isError && Object.keys(form.formState.errors).length === 0 && (
              <FormAlert tone="error" testId="settings-email-error">
                {failureText(change.error, t, t('accountSettings.email.failed'))}
              </FormAlert>
            )}
            <EmailField
              id="settings-new-email"
              label={t('accountSettings.email.newEmail')}
              {...form.field('new_email')}
            />
            <PasswordField
              id="settings-email-password"
              label={t('accountSettings.email.currentPassword')}
              current
              {...form.field('current_password')}
            />
            <SubmitRow
              label={t('accountSettings.email.submit')}
              busyLabel={t('accountSettings.saving')}
              busy={change.isPending}
              secondary
              testId="settings-email-submit"
            />
          </form>
        </>
      )}
    </SettingsSection>
  );
}

export function PasswordSection({ user }: { user: User }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const form = useContractForm({
    schema: passwordChangeFormSchema,
    defaultValues: { current_password: '', new_password: '', confirm_password: '' },
  });
  const change = useMutation({
    mutationFn: (values: PasswordChangeFormValues) =>
      api.post(
        CHANGE_PASSWORD_PATH,
        { current_password: values.current_password, new_password: values.new_password },
        messageResponseSchema,
      ),
    onSuccess: () => {
      form.reset();
      // Every other session has just ended.
      void queryClient.invalidateQueries({ queryKey: SESSIONS_QUERY_KEY });
    },
  });

  if (!user.has_password) return null;
  return (
    <SettingsSection name="password" title={t('accountSettings.password.title')}>
      <p className="text-muted">{t('accountSettings.password.lead')}</p>
      <form
        className="form settings-form"
        noValidate
        data-testid="settings-password-form"
        onSubmit={form.submitTo(change)}
      >
        {change.isSuccess && (
          <FormAlert tone="success" testId="settings-password-changed">
            {t('accountSettings.password.changed')}
          </FormAlert>
        )}
        {change.isError && Object.keys(form.formState.errors).length === 0 && (
          <FormAlert tone="error" testId="settings-password-error">
            {failureText(change.error, t, t('accountSettings.password.failed'))}
          </FormAlert>
        )}
        {/* Lets password managers tie the new password to the account. */}
        <input type="email" hidden readOnly autoComplete="username" value={user.email} />
        <PasswordField
          id="settings-current-password"
          label={t('accountSettings.password.current')}
          current
          {...form.field('current_password')}
        />
        <NewPasswordFields
          ids={{ password: 'settings-new-password', confirm: 'settings-confirm-password' }}
          labels={{
            password: t('accountSettings.password.next'),
            hint: t('accountSettings.password.hint'),
            confirm: t('accountSettings.password.confirm'),
          }}
          password={form.field('new_password')}
          confirm={form.field('confirm_password')}
        />
        <SubmitRow
          label={t('accountSettings.password.submit')}
          busyLabel={t('accountSettings.saving')}
          busy={change.isPending}
          secondary
          testId="settings-password-submit"
        />
      </form>
    </SettingsSection>
  );
}
