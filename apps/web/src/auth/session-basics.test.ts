import { STORAGE_KEYS } from '@debesis/contract';
import { describe, expect, it, vi } from 'vitest';
import { makeJwt } from '../test/fixtures.ts';
import { afterLogin, isPaymentCompletePath } from './after-login.ts';
import { tokenExpiresAt } from './jwt.ts';
import { returnPathFrom, safeReturnPath } from './session.ts';

describe('access token expiry', () => {
  it('reads exp from the token payload', () => {
    const expiresAt = Date.UTC(2026, 0, 15, 9, 15, 0);
    expect(tokenExpiresAt(makeJwt(expiresAt))).toBe(expiresAt);
  });

  it.each(['not-a-jwt', 'a.b.c', 'a.eyJzdWIiOiJ4In0.c', ''])('knows nothing about %j', (token) => {
    expect(tokenExpiresAt(token)).toBeNull();
  });
});

describe('return paths', () => {
  it.each([
    ['/dashboard/billing?x=1', '/dashboard/billing?x=1'],
    ['//evil.example', null],
    ['/\\evil.example', null],
    ['https://evil.example', null],
    [42, null],
  ])('%j → %j', (path, expected) => {
    expect(safeReturnPath(path)).toBe(expected);
    expect(returnPathFrom({ from: path })).toBe(expected);
  });
});

describe('after login', () => {
  it('goes to where the visitor was going, else to the services list', async () => {
    const navigate = vi.fn();
    await afterLogin({ from: '/dashboard/billing', pathname: '/auth/login', navigate });
    await afterLogin({ from: null, pathname: '/auth/login', navigate });
    expect(navigate.mock.calls).toEqual([
      ['/dashboard/billing', { replace: true }],
      ['/dashboard/services', { replace: true }],
    ]);
  });

  it('stays on a payment-complete page', async () => {
    const navigate = vi.fn();
    const pathname = '/dashboard/payments/retry/ord-1/payment/complete';
    expect(isPaymentCompletePath(pathname)).toBe(true);
    expect(isPaymentCompletePath('/dashboard/payments/new/complete')).toBe(true);
    expect(isPaymentCompletePath('/dashboard/payments/new/payment')).toBe(false);

    await afterLogin({ from: null, pathname, navigate });

    expect(navigate).not.toHaveBeenCalled();
  });

  it('forgets an unreadable stored plan and carries on as usual', async () => {
    window.localStorage.setItem(STORAGE_KEYS.selectedPlan, '{"product_id":1}');
    const navigate = vi.fn();

    await afterLogin({ from: null, pathname: '/auth/login', navigate });

    expect(navigate).toHaveBeenCalledWith('/dashboard/services', { replace: true });
    expect(window.localStorage.getItem(STORAGE_KEYS.selectedPlan)).toBeNull();
  });
});
