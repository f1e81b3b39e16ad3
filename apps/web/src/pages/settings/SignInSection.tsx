// How the owner signs in: the email address (changed by a link to the new address, which the
// server mails; the old address is told) and the password (the current one required; every
// other session ends, this one stays).
import {
  changeEmailResponseSchema,
  messageResponseSchema,
  type ChangeEmailResponse,
  type User,
} from '@debesis/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client.ts';
import { FormAlert, InputField } from '../../components/form/fields.tsx';
import { fieldErrorText, formErrorMap } from '../../forms/messages.ts';
import { showServerFieldErrors } from '../../forms/server-errors.ts';
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

export function EmailSection({ user }: { user: User }) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const [sent, setSent] = useState<ChangeEmailResponse | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    getValues,
    formState: { errors },
  } = useForm<EmailChangeFormValues>({
    resolver: zodResolver(emailChangeFormSchema, { error: formErrorMap }),
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
      reset();
    },
    onError: (error) => showServerFieldErrors(error, { setError, values: getValues() }),
  });
  const fieldError = (message: string | undefined) => fieldErrorText(t, message);

  return (
    <section className="card settings-section" aria-labelledby="settings-email-title">
      <h2 id="settings-email-title" className="settings-section__title">
        {t('accountSettings.email.title')}
      </h2>
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
            onSubmit={(event) => void handleSubmit((values) => change.mutate(values))(event)}
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
            {change.isError && Object.keys(errors).length === 0 && (
              <FormAlert tone="error" testId="settings-email-error">
                {failureText(change.error, t, t('accountSettings.email.failed'))}
              </FormAlert>
            )}
            <InputField
              id="settings-new-email"
              type="email"
              label={t('accountSettings.email.newEmail')}
              autoComplete="email"
              inputMode="email"
              required
              error={fieldError(errors.new_email?.message)}
              data-testid="settings-new-email"
              {...register('new_email')}
            />
            <InputField
              id="settings-email-password"
              type="password"
              label={t('accountSettings.email.currentPassword')}
              autoComplete="current-password"
              required
              error={fieldError(errors.current_password?.message)}
              data-testid="settings-email-password"
              {...register('current_password')}
            />
            <div className="button-row">
              <button
                type="submit"
                className="btn btn--secondary"
                disabled={change.isPending}
                data-testid="settings-email-submit"
              >
                {change.isPending ? t('accountSettings.saving') : t('accountSettings.email.submit')}
              </button>
            </div>
          </form>
        </>
      )}
    </section>
  );
}

export function PasswordSection({ user }: { user: User }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    getValues,
    formState: { errors },
  } = useForm<PasswordChangeFormValues>({
    resolver: zodResolver(passwordChangeFormSchema, { error: formErrorMap }),
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
      reset();
      // Every other session has just ended.
      void queryClient.invalidateQueries({ queryKey: SESSIONS_QUERY_KEY });
    },
    onError: (error) => showServerFieldErrors(error, { setError, values: getValues() }),
  });
  const fieldError = (message: string | undefined) => fieldErrorText(t, message);

  if (!user.has_password) return null;
  return (
    <section className="card settings-section" aria-labelledby="settings-password-title">
      <h2 id="settings-password-title" className="settings-section__title">
        {t('accountSettings.password.title')}
      </h2>
      <p className="text-muted">{t('accountSettings.password.lead')}</p>
      <form
        className="form settings-form"
        noValidate
        data-testid="settings-password-form"
        onSubmit={(event) => void handleSubmit((values) => change.mutate(values))(event)}
      >
        {change.isSuccess && (
          <FormAlert tone="success" testId="settings-password-changed">
            {t('accountSettings.password.changed')}
          </FormAlert>
        )}
        {change.isError && Object.keys(errors).length === 0 && (
          <FormAlert tone="error" testId="settings-password-error">
            {failureText(change.error, t, t('accountSettings.password.failed'))}
          </FormAlert>
        )}
        {/* Lets password managers tie the new password to the account. */}
        <input type="email" hidden readOnly autoComplete="username" value={user.email} />
        <InputField
          id="settings-current-password"
          type="password"
          label={t('accountSettings.password.current')}
          autoComplete="current-password"
          required
          error={fieldError(errors.current_password?.message)}
          data-testid="settings-current-password"
          {...register('current_password')}
        />
        <InputField
          id="settings-new-password"
          type="password"
          label={t('accountSettings.password.next')}
          autoComplete="new-password"
          required
          hint={t('accountSettings.password.hint')}
          error={fieldError(errors.new_password?.message)}
          data-testid="settings-new-password"
          {...register('new_password')}
        />
        <InputField
          id="settings-confirm-password"
          type="password"
          label={t('accountSettings.password.confirm')}
          autoComplete="new-password"
          required
          error={fieldError(errors.confirm_password?.message)}
          data-testid="settings-confirm-password"
          {...register('confirm_password')}
        />
        <div className="button-row">
          <button
            type="submit"
            className="btn btn--secondary"
            disabled={change.isPending}
            data-testid="settings-password-submit"
          >
            {change.isPending ? t('accountSettings.saving') : t('accountSettings.password.submit')}
          </button>
        </div>
      </form>
    </section>
  );
}
