// The routes load their pages on demand, and the first import of a page is slow on a busy machine:
// a file testing a service's pages loads them before its first test, so no test waits for it.
import { beforeAll } from 'vitest';

/** Loads the service detail page and then `pages` before the calling file's first test. */
export function loadServicePages(...pages: Array<() => Promise<unknown>>): void {
  beforeAll(async () => {
    await import('../pages/services/ServiceDetailPage.tsx');
    for (const load of pages) await load();
  });
}
