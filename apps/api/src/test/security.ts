// The security suite's shared pieces: every route the app registers with its declared access
// level (http/access.ts), an owner holding
// one of each resource a route can name (service, workspace user, group, share, orders, payment
// session, invoice, plan change), path parameters filled with those real ids, a valid body per
// route, and a snapshot of everything the owner can read, to tell whether an attack changed it.
import type { LightMyRequestResponse } from 'fastify';
import { FTP_DEFAULT_SETTINGS, type Order, type PlanChange, type VpnUser } from '@debesis/contract';
import { routeAccessOf, type AccessLevel } from '../http/access.ts';
import { signedInUser } from './factories.ts';
import { buyService, openSession, seedCatalogue } from './payments.ts';
import { csrfSession, injectWithCsrf, type TestContext } from './test-app.ts';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export interface Operation {
  method: Method;
  /** The route in OpenAPI form, e.g. `/api/v1/orders/{id}` (a wildcard is `{wildcard}`). */
  route: string;
}
export interface DeclaredOperation extends Operation {
  access: AccessLevel;
}
const METHODS = new Set<string>(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
export const CHANGES = new Set<Method>(['POST', 'PUT', 'PATCH', 'DELETE']);

/** `/orders/:id` → `/orders/{id}`, `/static/*` → `/static/{wildcard}`. */
const openApiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}').replace(/\*$/, '{wildcard}');

/**
 * Every route the app registered, documented or not, with the access level it declares. HEAD
 * answers as its GET, and the CORS preflight (`OPTIONS *`) is CORS's, tested in http.test.ts.
 */
export function operationsOf(ctx: TestContext): DeclaredOperation[] {
  const operations: DeclaredOperation[] = [];
  for (const { method, url, access } of routeAccessOf(ctx.app)) {
    if (!METHODS.has(method)) continue;
    if (!access) throw new Error(`${method} ${url} declares no access level`);
    operations.push({ method: method as Method, route: openApiPath(url), access });
  }
  return operations;
}

/** The operations of the OpenAPI document, to show the walks miss none of them. */
export function documentedOperations(ctx: TestContext): Operation[] {
  const document = ctx.app.swagger() as { paths?: Record<string, Record<string, unknown>> };
  const operations: Operation[] = [];
  for (const [route, methods] of Object.entries(document.paths ?? {})) {
    for (const method of Object.keys(methods).map((name) => name.toUpperCase())) {
      if (METHODS.has(method)) operations.push({ method: method as Method, route });
    }
  }
  return operations;
}

export const nameOf = (operation: Operation) => `${operation.method} ${operation.route}`;

/** Workspace names unique enough that finding one in an answer means a leak. */
export const WORKSPACE = {
  user: 'onaxq',
  group: 'teamxq',
  share: 'projxq',
  vpnUser: 'vpnxq',
  backupClient: 'bkcxq',
  nfsExport: 'shares/nfsxq',
  nfsClient: '192.0.2.10',
};
const PLAN = { product_id: 'mini', disk_space: 50, users_count: 5, period_id: '12m' };
const UPGRADE = { product_id: 'optimized', disk_space: 500, users_count: 10 };

export interface OwnerResources {
  email: string;
  auth: { authorization: string };
  serviceId: string;
  paidOrderId: string;
  /** An unpaid extension order with an open payment session. */
  extensionOrderId: string;
  sessionId: string;
  /** The owner's sign-in (auth session), as GET /auth/sessions names it. */
  signInSessionId: string;
  planChangeId: string;
  /** The unpaid order of the plan change. */
  planChangeOrderId: string;
  invoiceId: string;
  /** A VPN user of the service (its id: VPN user routes name users by id). */
  vpnUserId: string;
  /** The id of the service's user WORKSPACE.user (monitoring's user routes name users by id). */
  workspaceUserId: string;
  /** A backup schedule of the service, and the run "run now" made of it. */
  backupScheduleId: string;
  backupSessionId: string;
  backupClientId: string;
  shareLinkId: string;
  /** A subuser of the service, signed in: its id, its session's id and its token. */
  subuserId: string;
  subuserSessionId: string;
  subuserToken: string;
  /**
   * The examples the OpenAPI document gives, by operation (`PUT /api/v1/…/{key}`): what a route's
   * contract declares with `.meta({ examples })` fills what the lists below do not name, so a new
   * feature's routes are walked from its own schemas.
   */
  examples: ReadonlyMap<string, DocumentedExamples>;
}

export interface DocumentedExamples {
  /** Path parameters' examples, by name. */
  params: Readonly<Record<string, string>>;
  /** The JSON body's example. */
  body?: object;
}

interface DocumentedOperation {
  parameters?: Array<{ in: string; name: string; example?: unknown }>;
  requestBody?: { content?: Record<string, { example?: unknown }> };
}

/** Each operation's examples in the app's OpenAPI document. */
export function documentedExamples(ctx: TestContext): Map<string, DocumentedExamples> {
  const document = ctx.app.swagger() as {
    paths?: Record<string, Record<string, DocumentedOperation>>;
  };
  const examples = new Map<string, DocumentedExamples>();
  for (const [route, methods] of Object.entries(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(methods)) {
      const params = Object.fromEntries(
        (operation.parameters ?? [])
          .filter((parameter) => parameter.in === 'path' && typeof parameter.example === 'string')
          .map((parameter) => [parameter.name, parameter.example as string]),
      );
      const body = operation.requestBody?.content?.['application/json']?.example;
      examples.set(`${method.toUpperCase()} ${route}`, {
        params,
        ...(typeof body === 'object' && body !== null ? { body } : {}),
      });
    }
  }
  return examples;
}

/** A Linux-user portal token of the service's user WORKSPACE.user (a new one each call). */
export async function linuxUserSignIn(ctx: TestContext, serviceId: string): Promise<string> {
  const response = await expectOk(
    ctx.app.inject({
      method: 'POST',
      url: '/api/v1/auth/linux-user/login',
      payload: {
        username: WORKSPACE.user,
        password: 'sekret-pass-1',
        grant_type: 'password',
        client_id: serviceId,
      },
    }),
    'Linux-user sign-in',
  );
  return response.json<{ access_token: string }>().access_token;
}

export const SUBUSER = { username: 'atsargos', password: 'sekret-pass-4' };

async function expectOk(response: Promise<LightMyRequestResponse>, what: string) {
  const answer = await response;
  if (answer.statusCode >= 300) throw new Error(`${what}: ${answer.statusCode} ${answer.body}`);
  return answer;
}

/** The session an access token names (its `sid` claim). */
function sessionIdOf(accessToken: string): string {
  const payload = JSON.parse(Buffer.from(accessToken.split('.')[1] ?? '', 'base64url').toString()) as {
    sid: string;
  };
  return payload.sid;
}

/** A verified owner with one of everything, built through the API as a customer does. */
export async function ownerWithEverything(ctx: TestContext): Promise<OwnerResources> {
  await seedCatalogue(ctx);
  const owner = await signedInUser(ctx);
  const paid = await buyService(ctx, owner.auth, PLAN);
  const serviceId = paid.service_id;
  const change = (method: Method, url: string, payload?: object) =>
    expectOk(
      injectWithCsrf(ctx.app, { method, url, headers: owner.auth, ...(payload ? { payload } : {}) }),
      `${method} ${url}`,
    );
  const workspaceUser = (
    await change('POST', `/api/v1/user-groups/${serviceId}/users`, {
      name: WORKSPACE.user,
      password: 'sekret-pass-1',
    })
  ).json<{ id: string }>();
  await change('POST', `/api/v1/user-groups/${serviceId}/groups`, {
    name: WORKSPACE.group,
    members: [WORKSPACE.user],
  });
  await change('POST', `/api/v1/samba/${serviceId}/shares`, {
    name: WORKSPACE.share,
    users: [{ name: WORKSPACE.user }],
  });
  const vpnUser = (
    await change('POST', `/api/v1/vpn/${serviceId}/users`, {
      username: WORKSPACE.vpnUser,
      password: 'sekret-pass-1',
    })
  ).json<VpnUser>();
  await change('POST', `/api/v1/nfs/${serviceId}/shares`, {
    path: WORKSPACE.nfsExport,
    client: '192.0.2.0/24',
  });
  const backupSchedule = (
    await change('POST', `/api/v1/backups/${serviceId}/schedules`, {
      name: 'Projects',
      frequency: 'daily',
      paths: [{ kind: 'share', name: WORKSPACE.share }],
    })
  ).json<{ id: string }>();
  const backupSession = (
    await change('POST', `/api/v1/backups/${serviceId}/schedules/${backupSchedule.id}/trigger`)
  ).json<{ id: string }>();
  const backupClient = (
    await change('POST', `/api/v1/backups/${serviceId}/clients`, { name: WORKSPACE.backupClient })
  ).json<{ id: string }>();
  const shareLink = (
    await change('POST', `/api/v1/shares/${serviceId}/shares`, {
      type: 'samba',
      target: WORKSPACE.share,
      expiry: '24h',
    })
  ).json<{ id: string }>();
  const subuser = (
    await change('POST', `/api/v1/subusers/${serviceId}`, {
      username: SUBUSER.username,
      password: SUBUSER.password,
      password_confirm: SUBUSER.password,
    })
  ).json<{ id: string }>();
  const subuserToken = await subuserSignIn(ctx, serviceId);
  const subuserSessions = (
    await expectOk(
      ctx.app.inject({
        method: 'GET',
        url: `/api/v1/subusers/${serviceId}/${subuser.id}/sessions`,
        headers: owner.auth,
      }),
      'subuser sessions',
    )
  ).json<{ sessions: Array<{ id: string }> }>();
  const extension = (await change('POST', `/api/v1/orders/service/${serviceId}/extend`, {})).json<Order>();
  const session = await openSession(ctx, owner.auth, extension.id);
  const planChange = (
    await change('POST', '/api/v1/plan-changes/', { service_id: serviceId, ...UPGRADE })
  ).json<PlanChange>();
  const invoices = (
    await expectOk(
      ctx.app.inject({ method: 'GET', url: '/api/v1/billing/invoices', headers: owner.auth }),
      'invoices',
    )
  ).json<{ items: Array<{ id: string }> }>();
  const invoiceId = invoices.items[0]?.id;
  if (!invoiceId || !planChange.order_id) throw new Error('owner fixture incomplete');
  return {
    email: owner.email,
    auth: owner.auth,
    serviceId,
    paidOrderId: paid.id,
    extensionOrderId: extension.id,
    sessionId: session.session_id,
    signInSessionId: sessionIdOf(owner.tokens.access_token),
    planChangeId: planChange.id,
    planChangeOrderId: planChange.order_id,
    invoiceId,
    vpnUserId: vpnUser.id,
    workspaceUserId: workspaceUser.id,
    backupScheduleId: backupSchedule.id,
    backupSessionId: backupSession.id,
    backupClientId: backupClient.id,
    shareLinkId: shareLink.id,
    subuserId: subuser.id,
    subuserSessionId: subuserSessions.sessions[0]?.id ?? '',
    subuserToken,
    examples: documentedExamples(ctx),
  };
}

/** A new session of the service's subuser (SUBUSER): its `sus_` token. */
export async function subuserSignIn(ctx: TestContext, serviceId: string): Promise<string> {
  const response = await expectOk(
    ctx.app.inject({
      method: 'POST',
      url: '/api/v1/subusers/auth/login',
      payload: { service_id: serviceId, ...SUBUSER, device_name: 'walk' },
    }),
    'subuser sign-in',
  );
  return response.json<{ access_token: string }>().access_token;
}

/**
 * The owner's real id for each path parameter, by the route it appears in. A route whose
 * parameter has no entry here answers `undefined`: the walks then fail and name the route, so a
 * new route is added here rather than skipped.
 */
export function fillPath(route: string, owner: OwnerResources): string | undefined {
  const byParameter: Array<[RegExp, string, string]> = [
    [/^\/api\/v1\/products\//, 'id', 'mini'],
    [/^\/api\/v1\/orders\/service\//, 'id', owner.serviceId],
    [/^\/api\/v1\/orders\//, 'id', owner.extensionOrderId],
    [/^\/api\/v1\/payments\/session\//, 'id', owner.sessionId],
    [/^\/api\/v1\/auth\/sessions\//, 'id', owner.signInSessionId],
    [/^\/payments-sandbox\/sessions\//, 'id', owner.sessionId],
    // A sandbox card form nobody opened (the owner's would keep a card).
    [/^\/payments-sandbox\/setups\//, 'id', 'pms_no_such_setup_0123456789'],
    [/^\/api\/v1\/payments\/events\//, 'provider', 'sandbox'],
    [/^\/api\/v1\/auth\/oauth\//, 'provider', 'github'],
    [/^\/api\/v1\/plan-changes\//, 'id', owner.planChangeId],
    [/^\/api\/v1\/billing\/invoices\//, 'id', owner.invoiceId],
    [/^\/api\/v1\/services\//, 'id', owner.serviceId],
    [/^\/api\/v1\/backups\/[^/]+\/schedules\//, 'id', owner.backupScheduleId],
    [/^\/api\/v1\/backups\/[^/]+\/sessions\//, 'id', owner.backupSessionId],
    [/^\/api\/v1\/backups\/[^/]+\/clients\//, 'clientId', owner.backupClientId],
    [/^\/api\/v1\/shares\/[^/]+\/shares\//, 'id', owner.shareLinkId],
    [/^\/api\/v1\/subusers\//, 'id', owner.subuserId],
    [/^\/api\/v1\/monitoring\/services\//, 'id', owner.serviceId],
    [/^\/api\/v1\/monitoring\/users\//, 'userId', owner.workspaceUserId],
    [/^\/api\/v1\/subusers\//, 'sessionId', owner.subuserSessionId],
    // A snapshot the service does not hold (the walk's service has none reported).
    [/^\/api\/v1\/snapshots\//, 'name', '@GMT-2026.12.06-18.54.31'],
    // A share link's token that was never handed out (the owner's link opens for anyone who has it).
    [/^\/api\/v1\/public\/shares\//, 'token', 'no-such-share-link-token-0123456789abcdefgh'],
    [/./, 'serviceId', owner.serviceId],
    [/./, 'user', WORKSPACE.user],
    [/./, 'group', WORKSPACE.group],
    [/./, 'share', WORKSPACE.share],
    [/^\/api\/v1\/vpn\//, 'userId', owner.vpnUserId],
    [/^\/api\/v1\/nfs\//, 'path', WORKSPACE.nfsExport],
    [/^\/api\/v1\/nfs\//, 'client', WORKSPACE.nfsClient],
    // A one-time link's token: one that was never handed out.
    [/^\/api\/v1\/vpn\/config-links\//, 'token', 'no-such-link-token-0123456789'],
    // A node call nobody made: node routes are walked only by callers they refuse.
    [/^\/api\/v1\/nodes\/calls\//, 'callId', '00000000-0000-4000-8000-000000000000'],
    // Files under a folder (the OpenAPI viewer's assets): one that is not there.
    [/./, 'wildcard', 'no-such-file.txt'],
  ];
  let url = route;
  for (const [scope, parameter, value] of byParameter) {
    if (scope.test(route)) url = url.replaceAll(`{${parameter}}`, encodeURIComponent(value));
  }
  // What the list does not name, the route's contract may give as an example (any method's; the
  // route may have had a parameter replaced already, as the malformed-input walk does).
  for (const [name, examples] of owner.examples) {
    if (!routePattern(name.slice(name.indexOf(' ') + 1)).test(route)) continue;
    for (const [parameter, value] of Object.entries(examples.params)) {
      url = url.replaceAll(`{${parameter}}`, encodeURIComponent(value));
    }
  }
  return /\{[^}]+\}/.test(url) ? undefined : url;
}

/** A documented route with any segment in place of each of its parameters. */
const routePattern = (route: string) =>
  new RegExp(
    `^${route
      .split(/\{[^}]+\}/)
      .map(escapeRegExp)
      .join('[^/]+')}$`,
  );
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The query a route needs to get past its checks to the owner's ids (a required parameter). */
export function sampleQuery(operation: Operation, owner: OwnerResources): string | undefined {
  const queries: Record<string, string> = {
    'GET /api/v1/backups/{serviceId}/sessions/{id}/download': 'path=%2Fshares%2Fa.txt',
    'GET /api/v1/snapshots/{serviceId}/{name}/download': 'path=%2Fshares%2Fa.txt',
    'GET /api/v1/backups/{serviceId}/vpn-config': `client_id=${owner.backupClientId}`,
  };
  return queries[nameOf(operation)];
}

/** A body each state-changing route accepts from its owner (before the ids are checked). */
export function sampleBody(operation: Operation, owner: OwnerResources): object | undefined {
  const email = `sample-${Date.now()}@example.lt`;
  const company = {
    business_details: {
      business_name: 'UAB Pavyzdys',
      business_code: '300000001',
      address: { street: 'Gedimino pr. 2', city: 'Vilnius', postal_code: 'LT-01103', country: 'LT' },
    },
  };
  const bodies: Record<string, object> = {
    'POST /api/v1/auth/register': {
      email,
      password: 'Correct-Horse-7',
      firstName: 'Ona',
      lastName: 'Onaitė',
      country: 'LT',
    },
    'POST /api/v1/auth/login': { username: email, password: 'Correct-Horse-7', grant_type: 'password' },
    'POST /api/v1/auth/refresh': { refresh_token: 'not-a-token' },
    'POST /api/v1/auth/logout': {},
    'POST /api/v1/auth/verify-email': { token: 'not-a-token' },
    'POST /api/v1/auth/resend-verification': { email: owner.email },
    'POST /api/v1/auth/request-password-reset': { email: owner.email },
    'POST /api/v1/auth/reset-password': { token: 'not-a-token', password: 'Correct-Horse-8' },
    'POST /api/v1/auth/oauth/exchange': { code: 'not-a-code' },
    'POST /api/v1/auth/change-password': {
      current_password: 'Wrong-Horse-7',
      new_password: 'Correct-Horse-8',
    },
    'POST /api/v1/auth/change-email': { new_email: email, current_password: 'Wrong-Horse-7' },
    'POST /api/v1/auth/confirm-email-change': { token: 'not-a-token' },
    'PUT /api/v1/users/me': { first_name: 'Pakeistas', last_name: 'Vardas' },
    'POST /api/v1/users/me/convert-to-business': company,
    'PUT /api/v1/users/me/company': company,
    'PUT /api/v1/settings/': { theme: 'dark' },
    'POST /api/v1/orders/calculate-price': PLAN,
    'POST /api/v1/orders/calculate-vat': { amount: 100, country: 'LT' },
    'POST /api/v1/orders/': PLAN,
    'POST /api/v1/orders/service/{id}/extend': { period_id: '12m' },
    'POST /api/v1/orders/{id}/process': {},
    'POST /api/v1/orders/{id}/retry-payment': {},
    'POST /api/v1/payments/session': { order_id: owner.extensionOrderId },
    'POST /api/v1/auth/check-pending-plan': PLAN,
    'POST /api/v1/plan-changes/quote': { service_id: owner.serviceId, ...UPGRADE },
    'POST /api/v1/plan-changes/': { service_id: owner.serviceId, ...UPGRADE },
    'PUT /api/v1/billing/info': {
      billing_address: { street: 'Gedimino pr. 3', city: 'Vilnius', postal_code: 'LT-01103', country: 'LT' },
    },
    'POST /api/v1/services/{id}/action': { action: 'stop' },
    'PUT /api/v1/services/{id}/config': { name: 'Pakeista', description: 'Pakeista' },
    'PUT /api/v1/services/{id}': { name: 'Pakeista', description: 'Pakeista' },
    'PATCH /api/v1/services/{id}': { auto_renew: false },
    'POST /api/v1/user-groups/{serviceId}/users': { name: 'jonas', password: 'sekret-pass-2' },
    'PATCH /api/v1/user-groups/{serviceId}/users/{user}': { active: false },
    'PATCH /api/v1/user-groups/{serviceId}/users/{user}/password': { password: 'sekret-pass-3' },
    'POST /api/v1/user-groups/{serviceId}/groups': { name: 'kita', members: [WORKSPACE.user] },
    'PATCH /api/v1/user-groups/{serviceId}/groups/{group}': { description: 'Pakeista', members: [] },
    'POST /api/v1/samba/{serviceId}/shares': { name: 'kitas', users: [{ name: WORKSPACE.user }] },
    'PATCH /api/v1/samba/{serviceId}/shares/{share}': { description: 'Pakeista', guest_ok: false },
    'POST /api/v1/samba/{serviceId}/shares/{share}/users': { name: WORKSPACE.user, read: true },
    'PATCH /api/v1/samba/{serviceId}/shares/{share}/permissions/{user}': { read: true, write: false },
    'POST /api/v1/samba/{serviceId}/settings': { workgroup: 'KITA' },
    'POST /api/v1/vpn/{serviceId}/users': { username: 'kitas', password: 'sekret-pass-2' },
    'PATCH /api/v1/vpn/{serviceId}/users/{userId}': { enabled: false, traffic_limit_bytes: 1000 },
    'POST /api/v1/vpn/{serviceId}/users/{userId}/reset-password': { password: 'sekret-pass-3' },
    'POST /api/v1/nfs/{serviceId}/shares': { path: 'kitas', client: '192.0.2.20' },
    'POST /api/v1/shares/{serviceId}/shares': { type: 'samba', target: WORKSPACE.share, expiry: '1h' },
    'POST /api/v1/public/shares/{token}/unlock': { password: 'a guess' },
    'PATCH /api/v1/nfs/{serviceId}/shares/{path}': { access: 'read_write' },
    'POST /api/v1/backups/{serviceId}/schedules': {
      name: 'Kitas',
      frequency: 'weekly',
      paths: [{ kind: 'share', name: WORKSPACE.share }],
    },
    'PUT /api/v1/backups/{serviceId}/schedules/{id}': { state: 'paused' },
    'POST /api/v1/backups/{serviceId}/clients': { name: 'kitas-pc' },
    'POST /api/v1/backups/{serviceId}/sessions/{id}/restore': { path: '/shares/a.txt', target: 'folder' },
    'PUT /api/v1/ftp/{serviceId}/users/{user}/permissions': { permissions: 'read_only' },
    'PUT /api/v1/ftp/{serviceId}/settings': {
      ...FTP_DEFAULT_SETTINGS,
      max_clients: 20,
    },
    'POST /api/v1/ldap/services/{serviceId}/ldap/users/{user}/suspend': { suspend: true },
    'POST /api/v1/ldap/services/{serviceId}/ldap/users/{user}/expiry': { expiry_date: '2099-12-31' },
    'POST /api/v1/ldap/services/{serviceId}/ldap/alias': { alias: 'biuras' },
    'POST /api/v1/subusers/{serviceId}': {
      username: 'kitas',
      password: 'sekret-pass-5',
      password_confirm: 'sekret-pass-5',
    },
    'PATCH /api/v1/subusers/{serviceId}/{id}': {
      password: 'sekret-pass-6',
      password_confirm: 'sekret-pass-6',
    },
    'POST /api/v1/subusers/{serviceId}/{id}/2fa/verify': { code: '123456' },
    // A wrong current password: the portal refuses the change, whoever walks it.
    'POST /api/v1/api/linux-user/change-password': {
      current_password: 'not-the-password',
      new_password: 'sekret-pass-7',
      new_password_confirm: 'sekret-pass-7',
    },
    'POST /api/v1/auth/linux-user/login': {
      username: WORKSPACE.user,
      password: 'sekret-pass-1',
      grant_type: 'password',
      client_id: '00000000-0000-4000-8000-000000000001',
    },
    // Another service's id: a sign-in names a service, and a guess at the owner's is no resource of theirs.
    'POST /api/v1/subusers/auth/login': {
      service_id: '00000000-0000-4000-8000-000000000001',
      username: SUBUSER.username,
      password: SUBUSER.password,
    },
    'POST /api/v1/ldap/services/{serviceId}/ldap/bulk-update': {
      users: [WORKSPACE.user],
      operation: 'suspend',
    },
    'POST /api/v1/contact': {
      name: 'Ona Onaitė',
      email: 'ona@example.lt',
      subject: 'Klausimas',
      message: 'Sveiki, ar galite padėti?',
    },
    'POST /api/v1/analytics/events': { name: 'cta_click', path: '/' },
    'POST /api/v1/nodes/register': {
      name: 'node-x',
      hostname: 'node-x.local',
      agent_version: '0.0.0',
      capacity: { disk_total_bytes: 1, disk_free_bytes: 1, addresses: ['127.0.10.9'] },
    },
    'POST /api/v1/nodes/report': {
      agent_version: '0.0.0',
      capacity: { disk_total_bytes: 1, disk_free_bytes: 1, addresses: ['127.0.10.9'] },
      workspaces: [],
    },
    'POST /api/v1/nodes/calls/{callId}/result': { ok: true, result: { disconnected: 0 } },
    'POST /payments-sandbox/sessions/{id}/pay': {
      card_number: '4000000000000002',
      exp_month: 12,
      exp_year: 2040,
      cvc: '123',
    },
  };
  return bodies[nameOf(operation)] ?? owner.examples.get(nameOf(operation))?.body;
}

/** Sends one request as `auth`, with a valid CSRF pair unless `csrf` is false. */
export async function send(
  ctx: TestContext,
  options: {
    method: Method;
    url: string;
    auth?: Record<string, string>;
    payload?: string | object;
    headers?: Record<string, string>;
    csrf?: boolean;
  },
): Promise<LightMyRequestResponse> {
  const pair = options.csrf === false ? undefined : await csrfSession(ctx.app);
  return ctx.app.inject({
    method: options.method,
    url: options.url,
    headers: {
      ...(options.auth ?? {}),
      ...(pair ? { cookie: pair.cookie, 'x-csrf-token': pair.token } : {}),
      ...(options.headers ?? {}),
    },
    ...(options.payload === undefined ? {} : { payload: options.payload }),
  });
}

/** Everything the owner can read about their account, to compare before and after an attack. */
export async function ownerSnapshot(
  ctx: TestContext,
  owner: OwnerResources,
): Promise<Record<string, unknown>> {
  const { serviceId: sid } = owner;
  const urls = [
    '/api/v1/users/me',
    '/api/v1/settings/',
    '/api/v1/auth/sessions',
    '/api/v1/billing/',
    '/api/v1/billing/invoices',
    '/api/v1/orders/',
    `/api/v1/orders/${owner.paidOrderId}`,
    `/api/v1/orders/${owner.extensionOrderId}`,
    `/api/v1/orders/${owner.planChangeOrderId}`,
    `/api/v1/plan-changes/${owner.planChangeId}`,
    `/api/v1/payments/session/${owner.sessionId}/status`,
    '/api/v1/account/credit',
    `/api/v1/services/${sid}/config`,
    `/api/v1/services/${sid}/status`,
    `/api/v1/user-groups/${sid}/users`,
    `/api/v1/user-groups/${sid}/groups`,
    `/api/v1/user-groups/${sid}/groups/${WORKSPACE.group}/members`,
    `/api/v1/samba/${sid}/shares`,
    `/api/v1/samba/${sid}/shares/${WORKSPACE.share}/permissions`,
    `/api/v1/samba/${sid}/status`,
    `/api/v1/vpn/${sid}/users`,
    `/api/v1/vpn/${sid}/status`,
    `/api/v1/vpn/${sid}/sessions`,
    `/api/v1/ftp/${sid}/users`,
    `/api/v1/ftp/${sid}/settings`,
    `/api/v1/ldap/services/${sid}/ldap/config`,
    `/api/v1/ldap/services/${sid}/ldap/users`,
    `/api/v1/activity/audit/${sid}`,
    `/api/v1/subusers/${sid}`,
    `/api/v1/subusers/${sid}/${owner.subuserId}/sessions`,
  ];
  const snapshot: Record<string, unknown> = {};
  for (const url of urls) {
    const response = await ctx.app.inject({ method: 'GET', url, headers: owner.auth });
    snapshot[url] = { status: response.statusCode, body: response.json<unknown>() };
  }
  return snapshot;
}
