import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/api-error.ts';
import '../i18n/accounts-messages.ts';
import { i18n } from '../i18n/i18n.ts';
import { tooManyAttemptsMessage } from './login.ts';

const locked = (seconds: number) =>
  new ApiError(429, 'too_many_attempts', 'Too many attempts.', {}, { retryAfterSeconds: seconds });

describe('the rate-limit message', () => {
  it('says how long to wait in whole minutes, rounded up', () => {
    const t = i18n.getFixedT('en');
    expect(tooManyAttemptsMessage(locked(900), t)).toBe('Too many attempts. Try again in 15 minutes.');
    expect(tooManyAttemptsMessage(locked(61), t)).toBe('Too many attempts. Try again in 2 minutes.');
    expect(tooManyAttemptsMessage(locked(5), t)).toBe('Too many attempts. Try again in 1 minute.');
  });

  it('in Lithuanian, with its plural forms', () => {
    const t = i18n.getFixedT('lt');
    expect(tooManyAttemptsMessage(locked(60), t)).toBe(
      'Too many attempts. Bandykite dar kartą po 1 minutės.',
    );
    expect(tooManyAttemptsMessage(locked(300), t)).toBe(
      'Too many attempts. Bandykite dar kartą po 5 minučių.',
    );
    expect(tooManyAttemptsMessage(locked(900), t)).toBe(
      'Too many attempts. Bandykite dar kartą po 15 minučių.',
    );
  });
});
