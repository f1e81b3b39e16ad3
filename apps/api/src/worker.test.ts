import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startQueue, type JobQueue } from './jobs/queue.ts';
import { openTestDatabase, type TestDatabase } from './test/test-database.ts';
import { startWorker } from './worker.ts';
import { testWorkerDeps } from './test/worker.ts';

async function waitFor(check: () => boolean, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('worker', () => {
  let database: TestDatabase;
  let queue: JobQueue;
  let mailDir: string;

  beforeAll(async () => {
    mailDir = mkdtempSync(path.join(tmpdir(), 'debesis-worker-'));
    database = await openTestDatabase();
    queue = await startQueue(database, { supervise: true, pollingIntervalSeconds: 0.5 });
    await startWorker(testWorkerDeps(queue, database, mailDir));
  });
  afterAll(async () => {
    await queue.stop();
    await database.destroy();
    rmSync(mailDir, { recursive: true, force: true });
  });

  it('delivers a queued mail.send job to the mail folder', async () => {
    await queue.send('mail.send', {
      id: 'welcome-1',
      to: 'jonas@example.lt',
      subject: 'Sveiki',
      text: 'Labas',
    });
    const file = path.join(mailDir, 'jonas@example.lt--welcome-1.eml');
    await waitFor(() => existsSync(file));
    await waitFor(() => readdirSync(mailDir).length === 1);
  });

  it('ignores a second send with the same idempotency key', async () => {
    const first = await queue.send(
      'mail.send',
      { id: 'once', to: 'a@example.lt', subject: 's', text: 't' },
      { idempotencyKey: 'once', startAfter: new Date(Date.now() + 60_000) },
    );
    const second = await queue.send(
      'mail.send',
      { id: 'once', to: 'a@example.lt', subject: 's', text: 't' },
      { idempotencyKey: 'once', startAfter: new Date(Date.now() + 60_000) },
    );
    expect(first).toBeTruthy();
    expect(second).toBeNull();
    expect(await queue.pending()).toBeGreaterThanOrEqual(1);
  });
});
