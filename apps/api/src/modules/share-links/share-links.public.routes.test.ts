// The download route over a real socket: what it records when a visitor goes away midway, and a
// link revoked while a long download runs cutting that download. (share-links.test.ts drives the
// rest through the whole app.)
import { request as httpRequest } from 'node:http';
import { Readable } from 'node:stream';
import fastifyCookie from '@fastify/cookie';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ShareDownload, ShareLinkVisits } from './share-link-visits.ts';
import { publicShareRoutes } from './share-links.public.routes.ts';

const CHUNK = Buffer.alloc(64 * 1024, 7);

/** Bytes without end, as a big file's would be, until destroyed. */
const endless = () =>
  new Readable({
    read() {
      this.push(CHUNK);
    },
  });

describe('the public download route over a socket', () => {
  let app: FastifyInstance | undefined;
  afterEach(async () => {
    await app?.close();
  });

  async function serve(download: ShareDownload): Promise<string> {
    app = Fastify();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    await app.register(fastifyCookie);
    const visits = { download: async () => download } as unknown as ShareLinkVisits;
    await app.register(publicShareRoutes, { prefix: '/s', visits, secureCookies: false, revokeCheckMs: 50 });
    return app.listen({ port: 0, host: '127.0.0.1' });
  }

  function downloadOf(body: Readable, serves: () => boolean) {
    const finish = vi.fn(async (_end: { bytesSent: number; whole: boolean }) => undefined);
    const download: ShareDownload = {
      name: 'movie.mp4',
      size: null,
      meta: { type: 'file' },
      body,
      finish,
      stillServes: async () => serves(),
    };
    return { download, finish };
  }

  it('records a download the visitor left midway as not whole, with the bytes that went', async () => {
    const body = endless();
    const { download, finish } = downloadOf(body, () => true);
    const base = await serve(download);
    await new Promise<void>((resolve) => {
      const req = httpRequest(`${base}/s/${'a'.repeat(43)}/download`, (res) => {
        let got = 0;
        res.on('data', (chunk: Buffer) => {
          got += chunk.length;
          if (got > 1024 * 1024) req.destroy();
        });
        res.on('close', () => resolve());
      });
      req.on('error', () => resolve());
      req.end();
    });
    await vi.waitFor(() => expect(finish).toHaveBeenCalledTimes(1));
    const [end] = finish.mock.calls[0] ?? [];
    expect(end?.whole).toBe(false);
    expect(end?.bytesSent).toBeGreaterThan(1024 * 1024);
    // The node's bytes stop too.
    expect(body.destroyed).toBe(true);
  });

  it('cuts a download in flight once its link is revoked', async () => {
    let revoked = false;
    const body = endless();
    const { download, finish } = downloadOf(body, () => !revoked);
    const base = await serve(download);
    const ended = new Promise<'cut' | 'ended'>((resolve) => {
      const req = httpRequest(`${base}/s/${'a'.repeat(43)}/download`, (res) => {
        res.on('data', () => {
          revoked = true;
        });
        res.on('end', () => resolve('ended'));
        res.on('error', () => resolve('cut'));
        res.on('close', () => resolve('cut'));
      });
      req.on('error', () => resolve('cut'));
      req.end();
    });
    expect(await ended).toBe('cut');
    await vi.waitFor(() => expect(finish).toHaveBeenCalledTimes(1));
    expect(finish.mock.calls[0]?.[0].whole).toBe(false);
  });
});
