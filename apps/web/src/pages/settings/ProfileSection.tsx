// The owner's profile: name, phone and address, saved through PUT /users/me. The sign-in email
// and the account type are shown here too; the email changes in its own section.
import { userSchema, type User } from '@debesis/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client.ts';
import { updateSessionUser } from '../../auth/session.ts';
import { FormAlert, InputField } from '../../components/form/fields.tsx';
import { fieldErrorText, formErrorMap } from '../../forms/messages.ts';
import { showServerFieldErrors } from '../../forms/server-errors.ts';
import {
  failureText,
  profileFormSchema,
  profileValues,
  toProfileUpdate,
  USERS_ME_PATH,
  type ProfileFormValues,
} from './account-forms.ts';

/** The server's names of the address fields; the others are the form's own. */
const SERVER_FIELDS = {
  'address.street': 'street',
  'address.city': 'city',
  'address.state': 'state',
  'address.postal_code': 'postal_code',
} as const;

export function ProfileSection({ user }: { user: User }) {
  const { t } = useTranslation();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    getValues,
    formState: { errors, isDirty },
  } = useForm<ProfileFormValues>({
    resolver: zodResolver(profileFormSchema, { error: formErrorMap }),
    defaultValues: profileValues(user),
  });
  const save = useMutation({
    mutationFn: (values: ProfileFormValues) =>
      api.put(USERS_ME_PATH, toProfileUpdate(profileFormSchema.parse(values)), userSchema),
    onSuccess: (saved) => {
      updateSessionUser(saved);
      reset(profileValues(saved));
    },
    onError: (error) => showServerFieldErrors(error, { setError, values: getValues() }, SERVER_FIELDS),
  });
  const fieldError = (message: string | undefined) => fieldErrorText(t, message);
  const failed = save.isError && !(Object.keys(errors).length > 0);

  return (
    <section className="card settings-section" aria-labelledby="settings-account-title">
      <h2 id="settings-account-title" className="settings-section__title">
        {t('accountSettings.profile.title')}
      </h2>
      <dl className="detail-list" data-testid="settings-account">
        <div>
          <dt>{t('settings.account.email')}</dt>
          <dd data-testid="settings-account-email">{user.email}</dd>
        </div>
        <div>
          <dt>{t('settings.account.type')}</dt>
          <dd data-testid="settings-account-type">{t(`settings.account.${user.account_type}`)}</dd>
        </div>
      </dl>
      <form
        className="form settings-form"
        noValidate
        data-testid="settings-profile-form"
        onSubmit={(event) => void handleSubmit((values) => save.mutate(values))(event)}
      >
        {save.isSuccess && !isDirty && (
          <FormAlert tone="success" testId="settings-profile-saved">
            {t('accountSettings.profile.saved')}
          </FormAlert>
        )}
        {failed && (
          <FormAlert tone="error" testId="settings-profile-error">
            {failureText(save.error, t, t('accountSettings.profile.failed'))}
          </FormAlert>
        )}
        <div className="form__row">
          <InputField
            id="settings-first-name"
            label={t('accountSettings.profile.firstName')}
            autoComplete="given-name"
            required
            error={fieldError(errors.first_name?.message)}
            data-testid="settings-first-name"
            {...register('first_name')}
          />
          <InputField
            id="settings-last-name"
            label={t('accountSettings.profile.lastName')}
            autoComplete="family-name"
            required
            error={fieldError(errors.last_name?.message)}
            data-testid="settings-last-name"
            {...register('last_name')}
          />
        </div>
        <InputField
          id="settings-phone"
          type="tel"
          label={t('accountSettings.profile.phone')}
          autoComplete="tel"
          optional
          error={fieldError(errors.phone?.message)}
          data-testid="settings-phone"
          {...register('phone')}
        />
        <InputField
          id="settings-street"
          label={t('accountSettings.profile.street')}
          autoComplete="street-address"
          optional
          error={fieldError(errors.street?.message)}
          data-testid="settings-street"
          {...register('street')}
        />
        <div className="form__row">
          <InputField
            id="settings-city"
            label={t('accountSettings.profile.city')}
            autoComplete="address-level2"
            optional
            error={fieldError(errors.city?.message)}
            data-testid="settings-city"
            {...register('city')}
          />
          <InputField
            id="settings-postal-code"
            label={t('accountSettings.profile.postalCode')}
            autoComplete="postal-code"
            optional
            error={fieldError(errors.postal_code?.message)}
            data-testid="settings-postal-code"
            {...register('postal_code')}
          />
        </div>
        <InputField
          id="settings-state"
          label={t('accountSettings.profile.state')}
          autoComplete="address-level1"
          optional
          error={fieldError(errors.state?.message)}
          data-testid="settings-state"
          {...register('state')}
        />
        <div className="button-row">
          <button
            type="submit"
            className="btn btn--primary"
            disabled={save.isPending}
            data-testid="settings-profile-save"
          >
            {save.isPending ? t('accountSettings.saving') : t('accountSettings.save')}
          </button>
        </div>
      </form>
    </section>
  );
}
