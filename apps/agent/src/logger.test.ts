import { describe, expect, it } from 'vitest';
import { createJsonLogger } from './logger.ts';

describe('createJsonLogger (pino)', () => {
  it('writes one JSON object a line, at once, with the bindings, errors readable, below the level dropped', () => {
    const lines: string[] = [];
    const logger = createJsonLogger((line) => lines.push(line), { level: 'info', bindings: { node: 'n1' } });
    const missing = Object.assign(new Error('no such file'), { code: 'ENOENT' });
    logger.debug('not written');
    logger.info('plain');
    logger.warn({ err: missing, cause: new TypeError('bad'), service_id: 'x' }, 'failed');
    expect(lines).toHaveLength(2);
    expect(lines.every((line) => line.endsWith('\n') && !line.slice(0, -1).includes('\n'))).toBe(true);
    const [plain, failed] = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(plain).toEqual({ level: 30, time: expect.any(Number) as unknown, node: 'n1', msg: 'plain' });
    expect(failed).toEqual({
      level: 40,
      time: expect.any(Number) as unknown,
      node: 'n1',
      err: { type: 'Error', message: 'no such file', code: 'ENOENT' },
      cause: { type: 'TypeError', message: 'bad' },
      service_id: 'x',
      msg: 'failed',
    });
  });

  it('logs through a method handed on alone (pino needs its `this`)', () => {
    const lines: string[] = [];
    const { warn } = createJsonLogger((line) => lines.push(line));
    warn('detached');
    expect(lines).toHaveLength(1);
  });
});
