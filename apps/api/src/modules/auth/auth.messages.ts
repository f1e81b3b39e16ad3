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

export function authMessage(key: AuthMessage, language: Language): string {
  return messages[key][language];
}
