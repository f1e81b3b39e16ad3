// The yardsticks, run as their own process: a bare Fastify JSON route with nothing else, and, when
// DATABASE_URL names a PostgreSQL server, the ceiling of a signed-in read on it: one primary-key
// SELECT of an account through node-postgres (a pool of 10, as the product's), answered as JSON.
import Fastify from 'fastify';
import pg from 'pg';

const app = Fastify({ logger: false });
app.get('/bare', async () => ({ status: 'ok' }));

if (process.env.DATABASE_URL) {
  const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
  app.addHook('onClose', async () => pool.end());
  app.get<{ Querystring: { id?: string } }>('/select', async (request, reply) => {
    const { rows } = await pool.query(
      'SELECT id, email, first_name, last_name, account_type FROM users WHERE id = $1',
      [request.query.id ?? ''],
    );
    if (rows.length === 0) return reply.code(404).send({ detail: 'not_found' });
    return rows[0];
  });
}

const address = await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 0) });
process.stdout.write(`listening ${address}\n`);
