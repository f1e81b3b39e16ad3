import { Readable } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import type {
  NodeCallKind,
  NodeStreamMeta,
  PublicShare,
  ShareDescribeResult,
  ShareDownloadPayload,
  ShareLink,
  ShareLinkAccessLogResponse,
  ShareLinksResponse,
  StorageListing,
} from '@debesis/contract';
import { eq } from 'drizzle-orm';
import type { NodeCalls } from '../nodes/node-calls.ts';
import {
  useWorkspaceTestApp,
  activityOf,
  ownerWithService,
  setService,
  type Auth,
} from '../directory/workspace.test-support.ts';
import { shareLinks } from './share-links.table.ts';

// The node, played by a map of the storage's files: what the agent's handlers answer is proven
// against real files in the agent's tests and the live journey; here, what the API makes of it.
const FILES: Record<string, Buffer> = {
  'home/ona/report.pdf': Buffer.from('%PDF-1.4 the report, twenty-nine bytes'),
  'shares/projects/plan.txt': Buffer.from('0123456789abcdefghij'),
  'shares/projects/drawings/one.png': Buffer.from('not really a png'),
  'shares/papers/terms.pdf': Buffer.from('%PDF-1.4 with a script of its own'),
};
const MODIFIED = '2026-11-20T10:00:00.000Z';
const ETAG = '"v1"';

function describeItem(root: string, path: string): ShareDescribeResult {
  const full = path ? `${root}/${path}` : root;
  const name = full.split('/').pop() ?? '';
  const file = FILES[full];
  const base = { name, modified_at: MODIFIED, size_complete: true, truncated: false };
  if (file) return { ...base, found: true, type: 'file', size: file.length, entries: [] };
  const inside = Object.keys(FILES).filter((key) => key.startsWith(`${full}/`));
  if (inside.length === 0) return { ...base, found: false, type: 'file', size: 0, entries: [] };
  const names = new Map<string, 'file' | 'folder'>();
  for (const key of inside) {
    const [first = '', ...rest] = key.slice(full.length + 1).split('/');
    names.set(first, rest.length > 0 ? 'folder' : 'file');
  }
  return {
    ...base,
    found: true,
    type: 'folder',
    size: inside.reduce((sum, key) => sum + (FILES[key]?.length ?? 0), 0),
    entries: [...names].map(([entry, type]) => ({
      name: entry,
      type,
      size: type === 'file' ? (FILES[`${full}/${entry}`]?.length ?? 0) : 0,
      modified_at: MODIFIED,
    })),
  };
}

/** The node's `share.download`: a file's bytes (one range of them), or a "zip" of a folder. */
function download(payload: ShareDownloadPayload) {
  const item = describeItem(payload.root, payload.path);
  if (!item.found) return { ok: false as const, code: 'not_found' as const, error: 'not found' };
  if (item.type === 'folder') {
    const zip = Buffer.from('PK\u0003\u0004 a zip of the folder');
    const meta: NodeStreamMeta = { type: 'zip', modified_at: MODIFIED };
    return {
      ok: true as const,
      stream: { name: `${item.name}.zip`, size: null, body: Readable.from([zip]), meta },
    };
  }
  const bytes = FILES[payload.path ? `${payload.root}/${payload.path}` : payload.root]!;
  const total = bytes.length;
  const meta: NodeStreamMeta = { type: 'file', modified_at: MODIFIED, etag: ETAG };
  let slice = bytes;
  const { range } = payload;
  if (range && (payload.if_range === undefined || payload.if_range === ETAG)) {
    const start = 'suffix' in range ? Math.max(0, total - range.suffix) : range.start;
    const end = 'suffix' in range ? total - 1 : Math.min(range.end ?? total - 1, total - 1);
    if (start >= total) meta.range = { unsatisfiable: true, total };
    else {
      meta.range = { start, end, total };
      slice = bytes.subarray(start, end + 1);
    }
    if (start >= total) slice = Buffer.alloc(0);
  }
  return {
    ok: true as const,
    stream: { name: item.name, size: slice.length, body: Readable.from([slice]), meta },
  };
}

describe('share links', () => {
  let placed = 0;
  const asked: Array<{ kind: string; payload: unknown }> = [];
  const nodeCalls: NodeCalls = {
    call: (async (_serviceId: string, kind: NodeCallKind, payload: { root: string; path: string }) => {
      asked.push({ kind, payload });
      if (kind === 'share.describe') return { ok: true, result: describeItem(payload.root, payload.path) };
      if (kind === 'storage.browse') {
        const item = describeItem(payload.path, '');
        return {
          ok: true,
          result: { found: item.found && item.type === 'folder', entries: item.entries, truncated: false },
        };
      }
      return { ok: false, code: 'unsupported', error: kind };
    }) as NodeCalls['call'],
    stream: (async (_serviceId: string, kind: string, payload: ShareDownloadPayload) => {
      asked.push({ kind, payload });
      return download(payload);
    }) as NodeCalls['stream'],
  };

  const { ctx, call, node } = useWorkspaceTestApp({
    clock: true,
    nodeCalls,
    node: { name: 'share-links-node', addresses: ['10.19.0.1'] },
  });

  const base = (serviceId: string) => `/api/v1/shares/${serviceId}`;
  const tokenOf = (link: ShareLink) => (link.url ?? '').split('/s/')[1] ?? '';
  const visit = (
    token: string,
    options: {
      path?: string;
      ip?: string;
      cookie?: string;
      headers?: Record<string, string>;
      method?: 'GET' | 'HEAD';
    } = {},
    what = '',
  ) =>
    ctx.app.inject({
      method: options.method ?? 'GET',
      url: `/api/v1/public/shares/${token}${what}${options.path === undefined ? '' : `?path=${encodeURIComponent(options.path)}`}`,
      remoteAddress: options.ip ?? '203.0.113.7',
      headers: {
        'user-agent': 'curl/8.5',
        ...(options.cookie ? { cookie: options.cookie } : {}),
        ...options.headers,
      },
    });
  const fetchFile = (token: string, options: Parameters<typeof visit>[1] = {}) =>
    visit(token, options, '/download');

  async function placedService() {
    const owner = await ownerWithService(ctx);
    placed += 1;
    await setService(ctx, owner.serviceId, {
      nodeId: node.id,
      address: `10.19.1.${placed}`,
      idBase: 7_000_000 + placed * 10_000,
    });
    return owner;
  }
  async function create(auth: Auth, serviceId: string, body: object): Promise<ShareLink> {
    const response = await call.post(auth, `${base(serviceId)}/shares`, { expiry: '7d', ...body });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<ShareLink>();
  }
  const logOf = async (auth: Auth, serviceId: string, link: ShareLink, query = '') => {
    const response = await call.get(auth, `${base(serviceId)}/shares/${link.id}/access-logs${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<ShareLinkAccessLogResponse>();
  };
  /**
   * A download's end is recorded when its response has gone out, just after the visitor has it:
   * wait until the link has counted `downloads` and no download is still open.
   */
  const settled = (auth: Auth, serviceId: string, link: ShareLink, downloads: number) =>
    vi.waitFor(async () => {
      const listed = (await call.get(auth, `${base(serviceId)}/shares`)).json<ShareLinksResponse>().links;
      expect(listed.find((each) => each.id === link.id)?.downloads).toBe(downloads);
    });

  it('makes links of each kind, each with an unguessable URL that is kept only hashed and sealed', async () => {
    const { auth, serviceId } = await placedService();
    expect(
      (await call.post(auth, `/api/v1/samba/${serviceId}/shares`, { name: 'projects' })).statusCode,
    ).toBe(201);
    const nfs = await call.post(auth, `/api/v1/nfs/${serviceId}/shares`, {
      path: 'shares/projects',
      client: '192.168.1.0/24',
    });
    expect(nfs.statusCode, nfs.body).toBe(201);

    const samba = await create(auth, serviceId, {
      type: 'samba',
      target: 'projects',
      label: 'Project files',
    });
    const exported = await create(auth, serviceId, {
      type: 'nfs',
      target: 'shares/projects',
      expiry: 'permanent',
    });
    const file = await create(auth, serviceId, {
      type: 'path',
      target: 'home/ona/report.pdf',
      expiry: '1h',
      password: 'open sesame',
      download_limit: 3,
      ip_allow: ['203.0.113.0/24', '2001:db8::/32'],
      ip_deny: ['203.0.113.99'],
    });
    expect(samba).toMatchObject({
      type: 'samba',
      item_type: 'folder',
      state: 'active',
      label: 'Project files',
      has_password: false,
      downloads: 0,
    });
    expect(exported).toMatchObject({ item_type: 'folder', expires_at: null, expiry: 'permanent' });
    expect(file).toMatchObject({
      item_type: 'file',
      has_password: true,
      download_limit: 3,
      ip_deny: ['203.0.113.99'],
    });
    expect(Date.parse(file.expires_at ?? '') - Date.parse(file.created_at)).toBe(3_600_000);
    for (const link of [samba, exported, file]) expect(tokenOf(link)).toMatch(/^[A-Za-z0-9_-]{43}$/);

    // The list shows the same URLs again; the database holds neither token nor password.
    const listed = (await call.get(auth, `${base(serviceId)}/shares`)).json<ShareLinksResponse>();
    expect(listed.links.map((link) => link.url)).toEqual([file.url, exported.url, samba.url]);
    const rows = await ctx.database.executeSql('select * from share_links');
    const stored = JSON.stringify(rows);
    for (const link of [samba, exported, file]) expect(stored).not.toContain(tokenOf(link));
    expect(stored).not.toContain('open sesame');
    await expect(activityOf(ctx, serviceId)).resolves.toContainEqual(
      expect.objectContaining({
        action: 'Share link created',
        details: { name: 'Project files', type: 'samba', expiry: '7d' },
      }),
    );
  });

  it('refuses bad input with field errors and creates nothing; another account’s service or link is 404', async () => {
    const { auth, serviceId } = await placedService();
    const refusals: Array<[object, string, string]> = [
      [{ type: 'samba', target: 'nope' }, 'target', 'share_target_unknown'],
      [{ type: 'nfs', target: 'shares/none' }, 'target', 'share_target_unknown'],
      [{ type: 'path', target: 'home/ona/missing.txt' }, 'target', 'share_target_unknown'],
      [{ type: 'path', target: '../etc/passwd' }, 'target', 'storage_path_invalid'],
      [{ type: 'path', target: 'system/restore' }, 'target', 'storage_path_reserved'],
      [
        { type: 'path', target: 'home/ona/report.pdf', download_limit: -1 },
        'download_limit',
        'share_download_limit_invalid',
      ],
      [
        { type: 'path', target: 'home/ona/report.pdf', ip_allow: ['10.0.0.0/33'] },
        'ip_allow.0',
        'share_ip_rule_invalid',
      ],
      [
        { type: 'path', target: 'home/ona/report.pdf', ip_deny: ['1.2.3.4', '10.0.0.1/8'] },
        'ip_deny.1',
        'share_ip_rule_host_bits',
      ],
      [{ type: 'path', target: 'home/ona/report.pdf', password: 'short' }, 'password', 'password_too_short'],
      [{ type: 'path', target: 'home/ona/report.pdf', expiry: '2d' }, 'expiry', 'invalid_value'],
    ];
    for (const [body, field, code] of refusals) {
      const response = await call.post(auth, `${base(serviceId)}/shares`, { expiry: '24h', ...body });
      expect(response.statusCode, JSON.stringify(body)).toBe(422);
      expect(response.json<{ errors: unknown[] }>().errors, JSON.stringify(body)).toContainEqual(
        expect.objectContaining({ field, code }),
      );
    }
    expect((await call.get(auth, `${base(serviceId)}/shares`)).json<ShareLinksResponse>().links).toEqual([]);

    const link = await create(auth, serviceId, { type: 'path', target: 'home/ona/report.pdf' });
    const stranger = await placedService();
    for (const response of [
      await call.get(stranger.auth, `${base(serviceId)}/shares`),
      await call.post(stranger.auth, `${base(serviceId)}/shares`, {
        type: 'path',
        target: 'home/ona/report.pdf',
        expiry: '1h',
      }),
      await call.post(stranger.auth, `${base(serviceId)}/shares/${link.id}/revoke`),
      await call.del(stranger.auth, `${base(serviceId)}/shares/${link.id}`),
      await call.get(stranger.auth, `${base(serviceId)}/shares/${link.id}/access-logs`),
      await call.get(stranger.auth, `${base(serviceId)}/storage`),
    ])
      expect(response.statusCode).toBe(404);
    // Its own service, another service's link id: not found either.
    const other = await call.post(stranger.auth, `${base(stranger.serviceId)}/shares/${link.id}/revoke`);
    expect(other.json()).toMatchObject({ detail: 'share_link_not_found' });
    expect(
      (await call.get(auth, `${base(serviceId)}/shares`)).json<ShareLinksResponse>().links[0]?.state,
    ).toBe('active');
  });

  it('lets the owner walk the storage to pick a path; a folder that is not there is 404', async () => {
    const { auth, serviceId } = await placedService();
    const listing = (
      await call.get(auth, `${base(serviceId)}/storage?path=shares%2Fprojects`)
    ).json<StorageListing>();
    expect(listing.entries.map((entry) => [entry.name, entry.type])).toEqual([
      ['plan.txt', 'file'],
      ['drawings', 'folder'],
    ]);
    const missing = await call.get(auth, `${base(serviceId)}/storage?path=nowhere`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ detail: 'storage_folder_not_found' });
    expect((await call.get(auth, `${base(serviceId)}/storage?path=..%2Fx`)).statusCode).toBe(422);
  });

  it('serves a file whole and by range, with its type, name and version, and logs each attempt', async () => {
    const { auth, serviceId } = await placedService();
    const link = await create(auth, serviceId, { type: 'path', target: 'shares/projects/plan.txt' });
    const token = tokenOf(link);

    const page = await visit(token);
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json<PublicShare>()).toMatchObject({
      name: 'plan.txt',
      type: 'file',
      size: 20,
      downloads_left: null,
      has_password: false,
    });

    const whole = await fetchFile(token);
    expect(whole.statusCode).toBe(200);
    expect(whole.body).toBe('0123456789abcdefghij');
    expect(whole.headers).toMatchObject({
      'content-type': 'text/plain; charset=utf-8',
      'content-length': '20',
      'accept-ranges': 'bytes',
      etag: ETAG,
      'last-modified': new Date(MODIFIED).toUTCString(),
      'x-content-type-options': 'nosniff',
    });
    expect(whole.headers['content-disposition']).toBe(
      `attachment; filename="plan.txt"; filename*=UTF-8''plan.txt`,
    );

    const part = await fetchFile(token, { headers: { range: 'bytes=5-9' } });
    expect(part.statusCode).toBe(206);
    expect(part.body).toBe('56789');
    expect(part.headers['content-range']).toBe('bytes 5-9/20');
    const tail = await fetchFile(token, { headers: { range: 'bytes=-4', 'if-range': ETAG } });
    expect([tail.statusCode, tail.body]).toEqual([206, 'ghij']);
    const changed = await fetchFile(token, { headers: { range: 'bytes=0-1', 'if-range': '"v0"' } });
    expect([changed.statusCode, changed.body.length]).toEqual([200, 20]);
    const past = await fetchFile(token, { headers: { range: 'bytes=50-' } });
    expect([past.statusCode, past.headers['content-range']]).toEqual([416, 'bytes */20']);
    const head = await fetchFile(token, { method: 'HEAD' });
    expect([head.statusCode, head.headers['content-length'], head.body]).toEqual([200, '20', '']);
    const inline = await fetchFile(token, { path: '', headers: {} });
    expect(inline.headers['content-disposition']).toMatch(/^attachment/);

    await settled(auth, serviceId, link, 4);
    const log = await logOf(auth, serviceId, link);
    expect(log.entries.map((entry) => [entry.result, entry.bytes_sent])).toEqual([
      ['served', 20],
      ['incomplete', 0],
      ['served', 20],
      ['served', 4],
      ['served', 5],
      ['served', 20],
      ['viewed', 0],
    ]);
    expect(log.entries[0]).toMatchObject({ ip: '203.0.113.7', user_agent: 'curl/8.5', path: '' });
    // Whole files and ranges that reached the last byte count; the 416 and the middle range do not.
    const listed = (await call.get(auth, `${base(serviceId)}/shares`)).json<ShareLinksResponse>();
    expect(listed.links[0]?.downloads).toBe(4);
  });

  it('shares a folder: its entries, a folder inside it, a file inside it, and the folder as a zip', async () => {
    const { auth, serviceId } = await placedService();
    expect(
      (await call.post(auth, `/api/v1/samba/${serviceId}/shares`, { name: 'projects' })).statusCode,
    ).toBe(201);
    const link = await create(auth, serviceId, { type: 'samba', target: 'projects' });
    const token = tokenOf(link);
    const root = (await visit(token)).json<PublicShare>();
    expect(root).toMatchObject({ name: 'projects', item_type: 'folder', type: 'folder', path: '', size: 36 });
    expect(root.entries.map((entry) => entry.name)).toEqual(['plan.txt', 'drawings']);
    const inside = (await visit(token, { path: 'drawings' })).json<PublicShare>();
    expect(inside).toMatchObject({ name: 'projects', path: 'drawings', type: 'folder' });
    expect(inside.entries).toEqual([expect.objectContaining({ name: 'one.png', type: 'file' })]);

    const zip = await fetchFile(token);
    expect(zip.statusCode).toBe(200);
    expect(zip.headers['content-type']).toBe('application/zip');
    expect(zip.headers['accept-ranges']).toBeUndefined();
    expect(zip.headers['content-disposition']).toContain('filename="projects.zip"');
    const one = await fetchFile(token, { path: 'drawings/one.png' });
    expect([one.statusCode, one.body, one.headers['content-type']]).toEqual([
      200,
      'not really a png',
      'image/png',
    ]);
    const shown = await visit(token, { path: 'drawings/one.png' }, '/download').then(() =>
      ctx.app.inject({
        method: 'GET',
        url: `/api/v1/public/shares/${token}/download?path=drawings%2Fone.png&inline=1`,
      }),
    );
    expect(shown.headers['content-disposition']).toMatch(/^inline/);
    expect(shown.headers['content-security-policy']).toMatch(/^sandbox/);
    // Attack: a PDF shown in place went without the sandbox, with its own script and form actions.
    const paper = await create(auth, serviceId, { type: 'path', target: 'shares/papers/terms.pdf' });
    const pdf = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/public/shares/${tokenOf(paper)}/download?inline=1`,
    });
    expect(pdf.statusCode, pdf.body).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toMatch(/^inline/);
    expect(pdf.headers['content-security-policy']).toMatch(/^sandbox/);
    expect(pdf.headers['x-content-type-options']).toBe('nosniff');
    const missing = await fetchFile(token, { path: 'drawings/two.png' });
    expect([missing.statusCode, missing.json<{ detail: string }>().detail]).toEqual([
      404,
      'share_link_unavailable',
    ]);
    expect((await fetchFile(token, { path: '../../etc/passwd' })).statusCode).toBe(422);
    // The node is asked only for paths inside what the link shares.
    for (const { payload } of asked.filter((each) => each.kind.startsWith('share.')))
      expect((payload as { root: string }).root).not.toContain('..');
  });

  it('asks for the password, refuses a wrong one, and limits the tries per link and per address', async () => {
    const { auth, serviceId } = await placedService();
    const link = await create(auth, serviceId, {
      type: 'path',
      target: 'shares/projects/plan.txt',
      password: 'open sesame',
    });
    const token = tokenOf(link);
    const locked = await visit(token);
    expect([locked.statusCode, locked.json<{ detail: string }>().detail]).toEqual([
      401,
      'share_link_password_required',
    ]);
    expect((await fetchFile(token)).statusCode).toBe(401);

    const unlock = (password: string, ip = '203.0.113.7') =>
      ctx.app.inject({
        method: 'POST',
        url: `/api/v1/public/shares/${token}/unlock`,
        remoteAddress: ip,
        payload: { password },
      });
    const wrong = await unlock('open sesame!');
    expect([wrong.statusCode, wrong.json<{ detail: string }>().detail]).toEqual([
      401,
      'share_link_wrong_password',
    ]);
    const right = await unlock('open sesame');
    expect(right.statusCode, right.body).toBe(200);
    const cookie = String(right.headers['set-cookie']);
    expect(cookie).toContain(`Path=/api/v1/public/shares/${token}`);
    expect(cookie).toContain('HttpOnly');
    const grant = cookie.split(';')[0] ?? '';
    expect((await visit(token, { cookie: grant })).statusCode).toBe(200);
    expect((await fetchFile(token, { cookie: grant })).body).toBe('0123456789abcdefghij');
    // A grant is for its link only.
    const other = await create(auth, serviceId, {
      type: 'path',
      target: 'shares/projects/plan.txt',
      password: 'other secret',
    });
    expect(
      (await visit(tokenOf(other), { cookie: grant.replace(/=.*/, `=${grant.split('=')[1]}`) })).statusCode,
    ).toBe(401);

    // Ten wrong tries from one address close the link's door to that address for 15 minutes
    // (the right password too), not to a visitor elsewhere who knows it...
    for (let i = 0; i < 10; i += 1) expect((await unlock('guess', '198.51.100.9')).statusCode).toBe(401);
    const limited = await unlock('open sesame', '198.51.100.9');
    expect([limited.statusCode, limited.json<{ detail: string }>().detail]).toEqual([
      429,
      'too_many_attempts',
    ]);
    expect((await unlock('open sesame', '198.51.100.200')).statusCode).toBe(200);
    const results = (await logOf(auth, serviceId, link)).entries.map((entry) => entry.result);
    expect(results.filter((result) => result === 'wrong_password')).toHaveLength(11);
    expect(results).toContain('rate_limited');
    expect(results.filter((result) => result === 'unlocked')).toHaveLength(2);
    const filtered = await logOf(auth, serviceId, link, '?result=wrong_password&ip=198.51.100.&limit=5');
    expect([filtered.total, filtered.entries.length]).toEqual([10, 5]);
    // ...until the window has passed.
    ctx.advance(15 * 60_000 + 1000);
    expect((await unlock('open sesame', '198.51.100.9')).statusCode).toBe(200);
  });

  it('gives each refusal its own answer and log entry: IP rules, expired, revoked, over the limit', async () => {
    const { auth, serviceId } = await placedService();
    const ruled = await create(auth, serviceId, {
      type: 'path',
      target: 'shares/projects/plan.txt',
      ip_allow: ['203.0.113.0/24', '2001:db8::/32'],
      ip_deny: ['203.0.113.99'],
    });
    expect((await visit(tokenOf(ruled))).statusCode).toBe(200);
    expect((await visit(tokenOf(ruled), { ip: '::ffff:203.0.113.8' })).statusCode).toBe(200);
    expect((await visit(tokenOf(ruled), { ip: '2001:db8::7' })).statusCode).toBe(200);
    for (const ip of ['203.0.113.99', '198.51.100.1', '2001:db9::1']) {
      const refused = await fetchFile(tokenOf(ruled), { ip });
      expect([refused.statusCode, refused.json<{ detail: string }>().detail]).toEqual([
        403,
        'share_link_ip_refused',
      ]);
    }

    const limited = await create(auth, serviceId, {
      type: 'path',
      target: 'shares/projects/plan.txt',
      download_limit: 1,
    });
    expect((await fetchFile(tokenOf(limited), { headers: { range: 'bytes=0-3' } })).statusCode).toBe(206);
    expect((await fetchFile(tokenOf(limited))).statusCode).toBe(200);
    await settled(auth, serviceId, limited, 1);
    const over = await fetchFile(tokenOf(limited));
    expect([over.statusCode, over.json<{ detail: string }>().detail]).toEqual([410, 'share_link_over_limit']);
    expect((await visit(tokenOf(limited))).json<{ detail: string }>().detail).toBe('share_link_over_limit');

    const revoked = await create(auth, serviceId, { type: 'path', target: 'shares/projects/plan.txt' });
    const revoke = await call.post(auth, `${base(serviceId)}/shares/${revoked.id}/revoke`);
    expect(revoke.json<ShareLink>()).toMatchObject({ state: 'revoked' });
    const gone = await fetchFile(tokenOf(revoked));
    expect([gone.statusCode, gone.json<{ detail: string }>().detail]).toEqual([410, 'share_link_revoked']);

    const hourly = await create(auth, serviceId, {
      type: 'path',
      target: 'shares/projects/plan.txt',
      expiry: '1h',
    });
    // Its hour is over (moved in the database: moving the clock would end the owner's session too).
    await ctx.database.db
      .update(shareLinks)
      .set({ expiresAt: new Date(ctx.now().getTime() - 1000) })
      .where(eq(shareLinks.id, hourly.id));
    const expired = await visit(tokenOf(hourly));
    expect([expired.statusCode, expired.json<{ detail: string }>().detail]).toEqual([
      410,
      'share_link_expired',
    ]);
    const unknown = await visit('A'.repeat(43));
    expect([unknown.statusCode, unknown.json<{ detail: string }>().detail]).toEqual([
      404,
      'share_link_not_found',
    ]);

    const results = async (link: ShareLink) =>
      (await logOf(auth, serviceId, link)).entries.map((entry) => entry.result);
    expect(await results(ruled)).toEqual([
      'ip_refused',
      'ip_refused',
      'ip_refused',
      'viewed',
      'viewed',
      'viewed',
    ]);
    expect(await results(limited)).toEqual(['over_limit', 'over_limit', 'served', 'served']);
    expect(await results(revoked)).toEqual(['revoked']);
    expect(await results(hourly)).toEqual(['expired']);
    const listed = (await call.get(auth, `${base(serviceId)}/shares`)).json<ShareLinksResponse>().links;
    expect(listed.find((link) => link.id === limited.id)).toMatchObject({
      state: 'active',
      limit_reached: true,
      downloads: 1,
    });
    expect(listed.find((link) => link.id === hourly.id)?.state).toBe('expired');

    // Deleting a link deletes its log; its URL then finds nothing.
    expect((await call.del(auth, `${base(serviceId)}/shares/${revoked.id}`)).statusCode).toBe(204);
    expect((await visit(tokenOf(revoked))).json<{ detail: string }>().detail).toBe('share_link_not_found');
    expect(await activityOf(ctx, serviceId)).toContainEqual(
      expect.objectContaining({ action: 'Share link deleted' }),
    );
  });

  it('stops serving when the service no longer runs, or its share is deleted', async () => {
    const { auth, serviceId } = await placedService();
    expect(
      (await call.post(auth, `/api/v1/samba/${serviceId}/shares`, { name: 'projects' })).statusCode,
    ).toBe(201);
    const link = await create(auth, serviceId, { type: 'samba', target: 'projects' });
    expect((await call.del(auth, `/api/v1/samba/${serviceId}/shares/projects`)).statusCode).toBe(204);
    expect((await visit(tokenOf(link))).json<{ detail: string }>().detail).toBe('share_link_unavailable');
    const file = await create(auth, serviceId, { type: 'path', target: 'shares/projects/plan.txt' });
    await setService(ctx, serviceId, { status: 'suspended' });
    expect((await fetchFile(tokenOf(file))).json<{ detail: string }>().detail).toBe('share_link_unavailable');
  });
});
