// The logging surface the agent needs, and nothing more. It is pino's call shape (`log(obj, msg)`
// and `log(msg)`), so the API hands over its Fastify/pino logger when it runs the agent
// in-process; standalone, main.ts makes a pino logger of its own (createJsonLogger).
import { pino } from 'pino';

export interface LogFn {
  (msg: string): void;
  (obj: object, msg?: string): void;
}

export interface Logger {
  debug: LogFn;
  info: LogFn;
  warn: LogFn;
  error: LogFn;
}

const ignore: LogFn = () => undefined;

export const silentLogger: Logger = { debug: ignore, info: ignore, warn: ignore, error: ignore };

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * pino writing one JSON object a line (`level`, `time`, the bindings, `msg`) to `write`,
 * synchronously (a line is written before the call returns).
 */
export function createJsonLogger(
  write: (line: string) => void,
  options: { level?: LogLevel; bindings?: Record<string, unknown> } = {},
): Logger {
  const logger = pino(
    {
      level: options.level ?? 'info',
      // No pid or hostname on every line: the bindings say which agent (its node) speaks.
      base: options.bindings ?? null,
      formatters: { log: serialiseErrors },
      // pino's own `err` serializer would run after, on what serialiseErrors made already.
      serializers: { err: (value: unknown) => value },
    },
    { write },
  );
  // Bound, so a method handed on alone still logs (pino's need their `this`).
  return {
    debug: logger.debug.bind(logger),
    info: logger.info.bind(logger),
    warn: logger.warn.bind(logger),
    error: logger.error.bind(logger),
  };
}

// Any field holding an Error (not only `err`, which is all pino's own serializer sees) is kept
// as its type, message and code: one short line per entry, as the agent logged before pino.
function serialiseErrors(obj: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(obj)) {
    out[key] = value instanceof Error ? describeError(value) : value;
  }
  return out;
}

export function describeError(error: Error): Record<string, unknown> {
  const code = (error as NodeJS.ErrnoException).code;
  return { type: error.name, message: error.message, ...(code ? { code } : {}) };
}

/** A readable one-line text for anything thrown. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return typeof error === 'string' ? error : JSON.stringify(error);
}
