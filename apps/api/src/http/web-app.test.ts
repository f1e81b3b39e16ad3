// Serving the built app: files, the SPA fallback, JSON 404s for the API, cache headers.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csrfPlugin } from './csrf.ts';
import { errorHandlerPlugin } from './error-handler.ts';
import { languagePlugin } from './language.ts';
import { webAppPlugin } from './web-app.ts';

describe('web app serving', () => {
  let app: FastifyInstance;
  let dist: string;
  beforeAll(async () => {
    dist = mkdtempSync(path.join(tmpdir(), 'debesis-dist-'));
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Debesis</title>');
    writeFileSync(path.join(dist, 'assets', 'app-1.js'), 'console.log(1)');
    mkdirSync(path.join(dist, 'pages'));
    writeFileSync(path.join(dist, 'pages', 'pricing.html'), '<!doctype html><title>Debesis pricing</title>');
    app = Fastify();
    await app.register(errorHandlerPlugin);
    await app.register(languagePlugin);
    await app.register(fastifyCookie);
    await app.register(csrfPlugin, { secure: false });
    await app.register(webAppPlugin, { webDist: dist });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it('serves hashed assets for a year and index.html for app paths, never cached', async () => {
    const asset = await app.inject({ method: 'GET', url: '/assets/app-1.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    for (const url of ['/', '/dashboard/services', '/no/such/page']) {
      const page = await app.inject({ method: 'GET', url });
      expect(page.statusCode, url).toBe(200);
      expect(page.body).toContain('<title>Debesis</title>');
      expect(page.headers['cache-control']).toBe('no-cache');
    }
  });

  it("serves a landing page's own copy of index.html (naming its code up front), else index.html", async () => {
    const pricing = await app.inject({ method: 'GET', url: '/pricing?plan=starter' });
    expect(pricing.body).toContain('<title>Debesis pricing</title>');
    expect(pricing.headers['cache-control']).toBe('no-cache');
    // No copy for the home page in this build, and none for deeper or other paths.
    for (const url of ['/', '/pricing/x', '/about', '/Pricing']) {
      const page = await app.inject({ method: 'GET', url });
      expect(page.body, url).toContain('<title>Debesis</title>');
    }
  });

  it('serves files added after start (a rebuild) without a restart', async () => {
    writeFileSync(path.join(dist, 'assets', 'app-2.js'), 'console.log(2)');
    const asset = await app.inject({ method: 'GET', url: '/assets/app-2.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.body).toBe('console.log(2)');
  });

  it('answers unknown API paths with JSON and refuses to leave the folder', async () => {
    const api = await app.inject({ method: 'GET', url: '/api/v1/nothing' });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toMatchObject({ detail: 'not_found' });
    const escape = await app.inject({ method: 'GET', url: '/assets/..%2f..%2f..%2fetc%2fpasswd' });
    expect(escape.body).not.toContain('root:');
  });
});
