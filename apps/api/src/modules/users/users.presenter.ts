// The current user as the API shows it: the user fields of spec §3 merged with the settings.
import type { Settings, User } from '@debesis/contract';
import type { SettingsRow, UserWithSettings } from './users.queries.ts';

export function presentSettings(settings: SettingsRow): Settings {
  return {
    theme: settings.theme,
    language: settings.language,
    notifications: { email: settings.notificationEmail, browser: settings.notificationBrowser },
  };
}

export function presentUser(user: UserWithSettings): User {
  return {
    id: user.id,
    email: user.email,
    first_name: user.firstName,
    last_name: user.lastName,
    active: user.active,
    account_type: user.accountType,
    email_verified: user.emailVerified,
    login_count: user.loginCount,
    roles: user.roles,
    country: user.country,
    phone: user.phone,
    address: user.address,
    company: user.company,
    has_password: user.passwordHash !== null,
    created_at: user.createdAt.toISOString(),
    theme: user.settings.theme,
    language: user.settings.language,
    notification_email: user.settings.notificationEmail,
    notification_browser: user.settings.notificationBrowser,
  };
}
