// The owner's profile: name, phone and address, saved through PUT /users/me. The sign-in email
// and the account type are shown here too; the email changes in its own section.
import { userSchema, type User } from '@debesis/contract';
import { useMutation } from '@tanstack/react-query';
import type { Path } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client.ts';
import { updateSessionUser } from '../../auth/session.ts';
import { DefinitionList } from '../../components/DefinitionList.tsx';
import { FormAlert, InputField } from '../../components/form/fields.tsx';
import { PersonNameFields, SubmitRow } from '../../forms/account-fields.tsx';
import { useContractForm } from '../../forms/use-contract-form.ts';
import { SettingsSection } from './SettingsSection.tsx';
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
  const form = useContractForm({
    schema: profileFormSchema,
    defaultValues: profileValues(user),
    renamed: SERVER_FIELDS,
  });
  const { errors, isDirty } = form.formState;
  const save = useMutation({
    mutationFn: (values: Parameters<typeof toProfileUpdate>[0]) =>
      api.put(USERS_ME_PATH, toProfileUpdate(values), userSchema),
    onSuccess: (saved) => {
      updateSessionUser(saved);
      form.reset(profileValues(saved));
    },
  });
  const failed = save.isError && !(Object.keys(errors).length > 0);
  /** An optional field of the profile, its id its test id. */
  const optional = (name: Path<ProfileFormValues>, id: string) => ({
    id,
    'data-testid': id,
    optional: true,
    ...form.field(name),
  });

  return (
    <SettingsSection name="account" title={t('accountSettings.profile.title')}>
      <DefinitionList
        className="detail-list"
        testId="settings-account"
        items={[
          { term: t('settings.account.email'), value: user.email, testId: 'settings-account-email' },
          {
            term: t('settings.account.type'),
            value: t(`settings.account.${user.account_type}`),
            testId: 'settings-account-type',
          },
        ]}
      />
      <form
        className="form settings-form"
        noValidate
        data-testid="settings-profile-form"
        onSubmit={form.submitTo(save)}
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
        <PersonNameFields
          idPrefix="settings"
          labels={{
            first: t('accountSettings.profile.firstName'),
            last: t('accountSettings.profile.lastName'),
          }}
          first={form.field('first_name')}
          last={form.field('last_name')}
        />
        <InputField
          type="tel"
          label={t('accountSettings.profile.phone')}
          autoComplete="tel"
          {...optional('phone', 'settings-phone')}
        />
        <InputField
          label={t('accountSettings.profile.street')}
          autoComplete="street-address"
          {...optional('street', 'settings-street')}
        />
        <div className="form__row">
          <InputField
            label={t('accountSettings.profile.city')}
            autoComplete="address-level2"
            {...optional('city', 'settings-city')}
          />
          <InputField
            label={t('accountSettings.profile.postalCode')}
            autoComplete="postal-code"
            {...optional('postal_code', 'settings-postal-code')}
          />
        </div>
        <InputField
          label={t('accountSettings.profile.state')}
          autoComplete="address-level1"
          {...optional('state', 'settings-state')}
        />
        <SubmitRow
          label={t('accountSettings.save')}
          busyLabel={t('accountSettings.saving')}
          busy={save.isPending}
          testId="settings-profile-save"
        />
      </form>
    </SettingsSection>
  );
}
