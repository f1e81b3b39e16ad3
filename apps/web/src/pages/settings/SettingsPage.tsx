// Settings (spec §2, §3, §5): theme, language and notifications, saved to the account as soon as
// they change; the profile, the sign-in email and password, the live sessions; the company
// details and the conversion to a business account.
import {
  LANGUAGES,
  settingsSchema,
  THEMES,
  type Language,
  type Settings,
  type Theme,
} from '@debesis/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { api, isApiError } from '../../api/client.ts';
import { saveSettings, SETTINGS_PATH } from '../../auth/session-runtime.ts';
import { useSession } from '../../auth/session.ts';
import { CheckboxField, FormAlert } from '../../components/form/fields.tsx';
import { useDocumentTitle } from '../../components/useDocumentTitle.ts';
import '../../i18n/accounts-messages.ts';
import { changeLanguage, LANGUAGE_NAMES, useLanguage } from '../../i18n/language.ts';
import { setTheme, useTheme } from '../../theme/theme.ts';
import { BrowserNotificationsField } from './BrowserNotificationsField.tsx';
import { CompanySection } from './CompanySection.tsx';
import { ProfileSection } from './ProfileSection.tsx';
import { SessionsSection } from './SessionsSection.tsx';
import { EmailSection, PasswordSection } from './SignInSection.tsx';
import './settings.css';
import { SegmentedChoice } from '../../components/SegmentedChoice.tsx';
import { LoadFailed } from '../../components/LoadFailed.tsx';

const SETTINGS_QUERY_KEY = ['settings'] as const;

type SettingsPatch = Parameters<typeof saveSettings>[0];

export function SettingsPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('settings.title'));
  const { user } = useSession();

  return (
    <>
      <header className="page-header">
        <h1>{t('settings.title')}</h1>
        <p className="text-muted">{t('settings.lead')}</p>
      </header>
      <div className="settings-grid">
        <PreferencesSection />
        {user && <ProfileSection user={user} />}
        {user && <EmailSection user={user} />}
        {user && <PasswordSection user={user} />}
        {user && <SessionsSection />}
        {user && <CompanySection user={user} />}
      </div>
    </>
  );
}

/**
 * One preference chosen among a few (theme, language), named by its visible label. Its test ids
 * are `settings-<name>` and `settings-<name>-<option>`.
 */
function PreferenceChoice<Option extends string>({
  name,
  label,
  ...choice
}: {
  name: string;
  label: string;
  options: readonly Option[];
  value: Option;
  onChange: (next: Option) => void;
  renderOption: (option: Option) => ReactNode;
  optionLang?: (option: Option) => string;
}) {
  return (
    <div className="settings-field">
      <span className="field__label" id={`settings-${name}-label`}>
        {label}
      </span>
      <SegmentedChoice
        {...choice}
        labelledBy={`settings-${name}-label`}
        testId={`settings-${name}`}
        optionTestId={(option) => `settings-${name}-${option}`}
        optionClassName="settings-option"
      />
    </div>
  );
}

function PreferencesSection() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { theme } = useTheme();
  const { language } = useLanguage();
  const settings = useQuery({
    queryKey: SETTINGS_QUERY_KEY,
    queryFn: () => api.get(SETTINGS_PATH, settingsSchema),
  });

  const save = useMutation({
    mutationFn: (patch: SettingsPatch) => saveSettings(patch),
    onMutate: (patch) => {
      // Notifications show the new value at once; a failure puts the server's back.
      const previous = queryClient.getQueryData<Settings>(SETTINGS_QUERY_KEY);
      if (previous && patch.notifications) {
        queryClient.setQueryData<Settings>(SETTINGS_QUERY_KEY, {
          ...previous,
          notifications: { ...previous.notifications, ...patch.notifications },
        });
      }
      return { previous };
    },
    onSuccess: (saved) => queryClient.setQueryData(SETTINGS_QUERY_KEY, saved),
    onError: (_error, _patch, context) => {
      if (context?.previous) queryClient.setQueryData(SETTINGS_QUERY_KEY, context.previous);
    },
  });

  function chooseTheme(next: Theme): void {
    // Applied here and now; the settings page saves it itself (source 'settings', not synced twice).
    setTheme(next, 'settings');
    save.mutate({ theme: next });
  }

  function chooseLanguage(next: Language): void {
    void changeLanguage(next, 'settings');
    save.mutate({ language: next });
  }

  const notifications = settings.data?.notifications;

  return (
    <section className="card settings-section" aria-labelledby="settings-preferences-title">
      <div className="settings-section__header">
        <h2 id="settings-preferences-title" className="settings-section__title">
          {t('settings.appearance.title')}
        </h2>
        <p className="settings-status" role="status" data-testid="settings-status">
          {save.isPending ? t('settings.saving') : save.isSuccess ? t('settings.saved') : ''}
        </p>
      </div>
      <p className="text-muted">{t('settings.appearance.lead')}</p>

      {save.isError && (
        <FormAlert tone="error" testId="settings-error">
          {isApiError(save.error) ? save.error.message : t('clientErrors.unknown_error')}
        </FormAlert>
      )}

      <PreferenceChoice
        name="theme"
        label={t('settings.appearance.theme')}
        options={THEMES}
        value={theme}
        onChange={chooseTheme}
        renderOption={(option) => t(`theme.${option}`)}
      />

      <PreferenceChoice
        name="language"
        label={t('settings.appearance.language')}
        options={LANGUAGES}
        value={language}
        onChange={chooseLanguage}
        optionLang={(option) => option}
        renderOption={(option) => LANGUAGE_NAMES[option]}
      />

      <h3 className="settings-subtitle">{t('settings.notifications.title')}</h3>
      {settings.isError ? (
        <LoadFailed retryLabel={t('settings.retry')} query={settings} testId="settings-load-error">
          {t('settings.loadFailed')}
        </LoadFailed>
      ) : (
        <div className="settings-checks" aria-busy={settings.isPending}>
          <CheckboxField
            id="settings-notifications-email"
            label={t('settings.notifications.email')}
            hint={t('settings.notifications.emailHint')}
            checked={notifications?.email ?? false}
            disabled={!notifications}
            onChange={(event) => save.mutate({ notifications: { email: event.target.checked } })}
            data-testid="settings-notifications-email"
          />
          <BrowserNotificationsField
            checked={notifications?.browser ?? false}
            disabled={!notifications}
            onChange={(browser) => save.mutate({ notifications: { browser } })}
          />
        </div>
      )}
    </section>
  );
}
