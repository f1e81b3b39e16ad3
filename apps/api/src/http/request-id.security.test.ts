// Attack 12.15: a client's x-request-id was logged and echoed as given.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../app.ts';
import { startQueue, type JobQueue } from '../jobs/queue.ts';
import { openTestDatabase, type TestDatabase } from '../test/test-database.ts';
import { testConfig } from '../test/test-app.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('request ids', () => {
  let app: App;
  let queue: JobQueue;
  let database: TestDatabase;
  let dataDir: string;
  const logged: string[] = [];

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'debesis-request-id-'));
    database = await openTestDatabase();
    queue = await startQueue(database, { supervise: false });
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logged.push(chunk.toString());
        done();
      },
    });
    app = await buildApp({
      config: testConfig(dataDir, { LOG_LEVEL: 'info' }),
      database,
      queue,
      logger: pino({ level: 'info' }, sink),
    });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await queue.stop();
    await database.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const call = (id: string) =>
    app.inject({ method: 'GET', url: '/api/v1/csrf', headers: { 'x-request-id': id } });

  it('attack 12.15: a malformed x-request-id is neither echoed nor logged; ours replaces it', async () => {
    const attacks = [
      'abc\n{"level":60,"msg":"forged log line"}',
      '{"admin":true,"msg":"injected"}',
      `huge-${'A'.repeat(100_000)}`,
      'spaces and <script>alert(1)</script>',
      'x'.repeat(65),
    ];
    for (const id of attacks) {
      logged.length = 0;
      const response = await call(id);
      expect(response.statusCode).toBe(200);
      const answered = String(response.headers['x-request-id']);
      expect(answered).toMatch(UUID);
      expect(logged.join('')).toContain(answered);
      for (const line of logged) {
        expect(line).not.toContain('forged log line');
        expect(line).not.toContain('injected');
        expect(line).not.toContain('AAAAAAAAAA');
        expect(line).not.toContain('<script>');
        expect(line).not.toContain('x'.repeat(65));
      }
    }
  });

  it('keeps a well-formed id a proxy or client sent, so traces still join up', async () => {
    for (const id of ['0b6f1f5e-8d3c-4a4e-9a53-5f2d0c1e7b21', 'trace.42_web-A']) {
      logged.length = 0;
      const response = await call(id);
      expect(response.headers['x-request-id']).toBe(id);
      expect(logged.join('')).toContain(id);
    }
  });
});
