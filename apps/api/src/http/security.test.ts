// helmet's headers, computed once at start instead of per request, are the ones it would send.
import { describe, expect, it } from 'vitest';
import { helmetOptions, securityHeaders } from './security.ts';

describe('security headers', () => {
  it('are helmet’s, with HSTS and upgrade-insecure-requests only over HTTPS', () => {
    const plain = securityHeaders(helmetOptions(false));
    expect(plain['content-security-policy']).toContain("default-src 'self'");
    expect(plain['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(plain['content-security-policy']).not.toContain('upgrade-insecure-requests');
    expect(plain['x-content-type-options']).toBe('nosniff');
    expect(plain['strict-transport-security']).toBeUndefined();
    expect(plain['cross-origin-embedder-policy']).toBeUndefined();
    const https = securityHeaders(helmetOptions(true));
    expect(https['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    expect(https['content-security-policy']).toContain('upgrade-insecure-requests');
  });

  it('allows the pages’ inline scripts by their SHA-256 and no other inline script', () => {
    const csp = securityHeaders(helmetOptions(false, ['alert(1)']))['content-security-policy'];
    // openssl dgst -sha256 -binary <<< 'alert(1)' (no newline) | base64
    expect(csp).toContain("script-src 'self' 'sha256-bhHHL3z2vDgxUt0W3dWQOrprscmda2Y5pLsLg4GF+pI='");
    expect(csp).not.toContain("'unsafe-inline'; script");
    expect(securityHeaders(helmetOptions(false))['content-security-policy']).toContain("script-src 'self';");
  });
});
