// What every part of the composition root is built from: the caller's configuration, database
// and clock, the jobs it may send, and the app's logger.
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import type { JobSenders } from './jobs.ts';

export interface AppContext {
  config: Config;
  database: Database;
  now: () => Date;
  jobs: JobSenders;
  log: FastifyBaseLogger;
}
