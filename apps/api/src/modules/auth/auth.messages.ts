// Texts of successful answers (errors live in the contract's catalogue).
import type { Language } from '@debesis/contract';

const messages = {
  email_verified: {
    en: 'Your email address is verified. You can sign in now.',
    lt: 'Jūsų el. pašto adresas patvirtintas. Dabar galite prisijungti.',
  },
  email_verified_choose_password: {
    en: 'Your email address is verified. It was registered more than once with different passwords, so none was kept: we sent you a link to choose your password.',
    lt: 'Jūsų el. pašto adresas patvirtintas. Jis buvo registruotas kelis kartus su skirtingais slaptažodžiais, todėl nė vienas neišsaugotas: išsiuntėme nuorodą slaptažodžiui pasirinkti.',
  },
  email_already_verified: {
    en: 'Your email address is already verified.',
    lt: 'Jūsų el. pašto adresas jau patvirtintas.',
  },
  verification_sent: {
    en: 'If the account exists and is not verified yet, we sent a new verification link.',
    lt: 'Jei paskyra egzistuoja ir dar nepatvirtinta, išsiuntėme naują patvirtinimo nuorodą.',
  },
  reset_sent: {
    en: 'If an account exists for this email, we sent a link to reset the password.',
    lt: 'Jei su šiuo el. paštu yra paskyra, išsiuntėme slaptažodžio atkūrimo nuorodą.',
  },
  signed_out: { en: 'You are signed out.', lt: 'Jūs atsijungėte.' },
} as const satisfies Record<string, Record<Language, string>>;

export type AuthMessage = keyof typeof messages;

/** Answers of the self-service routes in Settings; `{{email}}` is filled in. */
const accountMessages = {
  password_changed: {
    en: 'Your password is changed. Every other session was signed out.',
    lt: 'Slaptažodis pakeistas. Visi kiti seansai atjungti.',
  },
  email_change_sent: {
    en: 'We sent a link to {{email}}. Your address changes when you open it (within 24 hours).',
    lt: 'Išsiuntėme nuorodą adresu {{email}}. Adresas pasikeis, kai ją atversite (per 24 valandas).',
  },
  email_changed: {
    en: 'Your account now uses {{email}}. Sign in with this address from now on.',
    lt: 'Jūsų paskyra dabar naudoja adresą {{email}}. Nuo šiol prisijunkite šiuo adresu.',
  },
  session_ended: { en: 'The session is signed out.', lt: 'Seansas atjungtas.' },
} as const satisfies Record<string, Record<Language, string>>;

export function accountMessage(
  key: keyof typeof accountMessages,
  language: Language,
  values: { email?: string } = {},
): string {
  return accountMessages[key][language].replace('{{email}}', values.email ?? '');
}

export function authMessage(key: AuthMessage, language: Language): string {
  return messages[key][language];
}
