// The changes that may come without the CSRF header: calls that carry no browser session yet
// (sign-in, register, refresh), payment providers' events, and storage nodes' agents. The walks
// of robustness.test.ts and route-walk.security.test.ts read this one list, so a route that opts
// out of CSRF (`config: { csrf: false }`) without being listed here fails both.
const CSRF_EXEMPT = [
  /^POST \/api\/v1\/auth\/(login|register|refresh)$/,
  /^POST \/api\/v1\/auth\/oauth\/exchange$/,
  /^POST \/api\/v1\/subusers\/auth\/login$/,
  /^POST \/api\/v1\/auth\/linux-user\/login$/,
  /^POST \/api\/v1\/payments\/events/,
  // The sandbox provider's own card form: in production this page is the provider's, on its site.
  /^POST \/payments-sandbox\/sessions\/[^/]+\/pay$/,
  // And its card form of Billing (keeps a card, charges nothing), the same.
  /^POST \/payments-sandbox\/setups\/[^/]+\/save$/,
  /^(GET|POST) \/api\/v1\/nodes\//,
  // A share link's visitor has no session; a forged unlock only opens a link its forger can open.
  /^POST \/api\/v1\/public\/shares\/[^/]+\/unlock$/,
];

/** `path` is a URL or an OpenAPI route (`/payments-sandbox/sessions/{id}/pay`). */
export const isCsrfExempt = (method: string, path: string) =>
  CSRF_EXEMPT.some((pattern) => pattern.test(`${method} ${path}`));
