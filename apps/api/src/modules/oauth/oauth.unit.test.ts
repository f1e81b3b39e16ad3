// The OAuth module's pure rules: where a sign-in may return to, names from provider claims,
// Microsoft's verified-address rule, and the configuration that enables providers.
import { describe, expect, it } from 'vitest';
import { oauthEnvironmentSchema } from './oauth.config.ts';
import { createOAuthProviders, microsoftEmailVerified } from './oauth.providers.ts';
import { DEFAULT_REDIRECT, namesFrom, safeRedirectPath } from './oauth.service.ts';

describe('safeRedirectPath', () => {
  it.each([
    ['/dashboard/billing', '/dashboard/billing'],
    ['/dashboard/billing?page=2#top', '/dashboard/billing?page=2#top'],
    ['/a/../dashboard', '/dashboard'],
  ])('keeps the same-site path %s', (input, expected) => {
    expect(safeRedirectPath(input)).toBe(expected);
  });

  it.each([
    undefined,
    '',
    'dashboard',
    '//evil.example',
    '//evil.example/path',
    '/\\evil.example',
    '\\\\evil.example',
    'https://evil.example',
    'javascript:alert(1)',
    '/\tevil',
    '/\n/evil.example',
    42,
  ])('falls back to the default for %j', (input) => {
    expect(safeRedirectPath(input)).toBe(DEFAULT_REDIRECT);
  });

  it('falls back to the default for a path too long to be real', () => {
    expect(safeRedirectPath(`/${'a'.repeat(2000)}`)).toBe(DEFAULT_REDIRECT);
  });
});

describe('namesFrom', () => {
  const none = { givenName: null, familyName: null, name: null };

  it('prefers the given and family names', () => {
    expect(namesFrom({ givenName: 'Ona', familyName: 'Onaitė', name: 'X Y' }, 'o@example.lt')).toEqual({
      firstName: 'Ona',
      lastName: 'Onaitė',
    });
  });

  it('splits the full name, then falls back to the address', () => {
    expect(namesFrom({ ...none, name: 'Jonas  Petras Jonaitis' }, 'j@example.lt')).toEqual({
      firstName: 'Jonas',
      lastName: 'Petras Jonaitis',
    });
    expect(namesFrom(none, 'ruta.r@example.lt')).toEqual({ firstName: 'ruta.r', lastName: '' });
  });
});

describe('microsoftEmailVerified', () => {
  it('trusts personal accounts, domain-owner-verified tenants and an explicit email_verified', () => {
    expect(microsoftEmailVerified({ tid: '9188040d-6c67-4c5b-b112-36a304b66dad' })).toBe(true);
    expect(microsoftEmailVerified({ tid: 'some-tenant', xms_edov: true })).toBe(true);
    expect(microsoftEmailVerified({ tid: 'some-tenant', xms_edov: 'true' })).toBe(true);
    expect(microsoftEmailVerified({ email_verified: true })).toBe(true);
  });

  it('does not trust an address a tenant admin could have typed', () => {
    expect(microsoftEmailVerified({ tid: 'some-tenant' })).toBe(false);
    expect(microsoftEmailVerified({ tid: 'some-tenant', xms_edov: false })).toBe(false);
  });
});

describe('OAuth configuration', () => {
  it('defaults to the real providers and enables only those with an id and a secret', () => {
    const env = oauthEnvironmentSchema.parse({
      OAUTH_GOOGLE_CLIENT_ID: 'id',
      OAUTH_GOOGLE_CLIENT_SECRET: 'secret',
      OAUTH_GITHUB_CLIENT_ID: 'id-only',
      OAUTH_MICROSOFT_CLIENT_ID: '',
      OAUTH_MICROSOFT_CLIENT_SECRET: '',
    });
    expect(env).toMatchObject({
      OAUTH_GOOGLE_ISSUER: 'https://accounts.google.com',
      OAUTH_MICROSOFT_ISSUER: 'https://login.microsoftonline.com/common/v2.0',
      OAUTH_GITHUB_BASE_URL: 'https://github.com',
      OAUTH_GITHUB_API_URL: 'https://api.github.com',
      OAUTH_MICROSOFT_CLIENT_ID: undefined,
    });
    expect(createOAuthProviders(env).list()).toEqual([
      { id: 'google', name: 'Google', enabled: true },
      { id: 'github', name: 'GitHub', enabled: false },
      { id: 'microsoft', name: 'Microsoft', enabled: false },
    ]);
  });

  it('accepts plain HTTP only on this machine', () => {
    expect(
      oauthEnvironmentSchema.safeParse({ OAUTH_GOOGLE_ISSUER: 'http://127.0.0.1:4000/' }).data,
    ).toMatchObject({ OAUTH_GOOGLE_ISSUER: 'http://127.0.0.1:4000' });
    expect(oauthEnvironmentSchema.safeParse({ OAUTH_GOOGLE_ISSUER: 'http://idp.example' }).success).toBe(
      false,
    );
    expect(oauthEnvironmentSchema.safeParse({ OAUTH_GITHUB_API_URL: 'not a url' }).success).toBe(false);
  });
});
