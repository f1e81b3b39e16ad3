// Values PostgreSQL refuses (NUL, a lone surrogate inside JSON, an unparsable number) are the
// client's mistake: the central handler answers 422, on PGlite and on a real server alike, and
// the log line of any database error keeps the SQL but not the values it was sent.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import pino from 'pino';
import { sql } from 'drizzle-orm';
import { openTestDatabase, type TestDatabase } from '../test/test-database.ts';
import { errorHandlerPlugin } from './error-handler.ts';
import { languagePlugin } from './language.ts';
import { loggerOptions } from './logging.ts';

/** A pino logger whose lines land in `lines`, with the app's options. */
function capturingLogger(level = 'info') {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { logger: pino(loggerOptions(level), stream), lines };
}

describe('database refusals of a client value', () => {
  let database: TestDatabase;
  let app: FastifyInstance;
  const log = capturingLogger();

  beforeAll(async () => {
    database = await openTestDatabase();
    app = Fastify({ loggerInstance: log.logger }) as unknown as FastifyInstance;
    await app.register(errorHandlerPlugin);
    await app.register(languagePlugin);
    // The route sends the client's value to PostgreSQL as a handler with a missing schema would.
    app.post<{ Body: { value: unknown; as: 'text' | 'jsonb' | 'int' } }>('/echo', async (request) => {
      const { value, as } = request.body;
      if (as === 'jsonb') await database.db.execute(sql`select ${JSON.stringify(value)}::jsonb as v`);
      else if (as === 'int') await database.db.execute(sql`select ${String(value)}::int as v`);
      else await database.db.execute(sql`select ${String(value)}::text as v`);
      return { ok: true };
    });
    app.post('/boom', async () => {
      await database.db.execute(sql`select * from no_such_table where email = ${'ona.onaite@example.lt'}`);
    });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await database.destroy();
  });

  const send = (payload: object) =>
    app.inject({ method: 'POST', url: '/echo', payload, headers: { 'accept-language': 'lt' } });

  it('attack 12.11: NUL in text answers 422 invalid_characters, not 500', async () => {
    const response = await send({ value: 'Ona\u0000', as: 'text' });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ detail: 'invalid_characters' });
    expect(response.json<{ message: string }>().message).toMatch(/simbolių/);
  });

  it('attack 12.11: \\u0000 and a lone surrogate inside JSON answer 422, not 500', async () => {
    const nul = await send({ value: { note: 'a\u0000' }, as: 'jsonb' });
    expect(nul.statusCode).toBe(422);
    expect(nul.json()).toMatchObject({ detail: 'invalid_characters' });
    const surrogate = await send({ value: { note: 'a\ud800' }, as: 'jsonb' });
    expect(surrogate.statusCode).toBe(422);
    expect(surrogate.json()).toMatchObject({ detail: 'validation_error' });
    const number = await send({ value: '1e99999', as: 'int' });
    expect(number.statusCode).toBe(422);
  });

  it('attack 12.11: a real server fault is still a 500, logged without the query’s values', async () => {
    const response = await app.inject({ method: 'POST', url: '/boom' });
    expect(response.statusCode).toBe(500);
    expect(response.body).not.toMatch(/no_such_table|select|at .*\.ts/);
    const logged = log.lines.join('');
    expect(logged).toContain('42P01');
    expect(logged).toContain('no_such_table');
    expect(logged).not.toContain('ona.onaite');
    expect(logged).not.toContain('Ona\\u0000');
  });
});
