import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, type TestDatabase } from '../../test/test-database.ts';
import { createAnalyticsQueries } from '../analytics/analytics.queries.ts';
import { createContactQueries } from '../contact/contact.queries.ts';
import { createRetention } from './retention.ts';

describe('retention', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(async () => {
    await database.destroy();
  });

  it('deletes contact messages and analytics events older than 12 months, and keeps the rest', async () => {
    const now = new Date('2026-11-21T12:00:00Z');
    const contact = createContactQueries(database.db);
    const analytics = createAnalyticsQueries(database.db);
    const message = (subject: string, createdAt: Date) =>
      contact.insert({
        name: 'Ona',
        email: 'ona@example.lt',
        subject,
        message: 'A question about NFS exports.',
        language: 'lt',
        createdAt,
      });
    const event = (path: string, createdAt: Date) => analytics.insert({ name: 'page_view', path, createdAt });

    const old = await message('old', new Date('2025-11-21T11:59:59Z'));
    const kept = await message('a year to the second', new Date('2025-11-21T12:00:00Z'));
    await event('/old', new Date('2025-10-01T00:00:00Z'));
    await event('/recent', new Date('2026-11-20T00:00:00Z'));

    const shareLinks = { pruneAccessLogs: async () => 0 };
    const retention = createRetention({ contact, analytics, shareLinks, now: () => now });
    expect(await retention.prune()).toEqual({
      contactMessages: 1,
      analyticsEvents: 1,
      shareLinkAccessLogs: 0,
    });
    expect(await contact.findById(old.id)).toBeUndefined();
    expect(await contact.findById(kept.id)).toBeDefined();
    expect((await analytics.all()).map((row) => row.path)).toEqual(['/recent']);

    // Nothing more to do: a second run deletes nothing.
    expect(await retention.prune()).toEqual({
      contactMessages: 0,
      analyticsEvents: 0,
      shareLinkAccessLogs: 0,
    });
  });
});
