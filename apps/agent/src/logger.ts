// The logging surface the agent needs, and nothing more. It matches pino's call shapes
// (`log(obj, msg)` and `log(msg)`), so the API can hand over its Fastify/pino logger when it runs
// the agent in-process; standalone, main.ts supplies a small JSON logger.

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

const LEVELS = { debug: 20, info: 30, warn: 40, error: 50 } as const;
export type LogLevel = keyof typeof LEVELS;

/** One JSON object per line, pino-like (`level`, `time`, `msg`), written to the given sink. */
export function createJsonLogger(
  write: (line: string) => void,
  options: { level?: LogLevel; bindings?: Record<string, unknown> } = {},
): Logger {
  const threshold = LEVELS[options.level ?? 'info'];
  const make =
    (level: LogLevel): LogFn =>
    (first: string | object, msg?: string) => {
      if (LEVELS[level] < threshold) return;
      const fields = typeof first === 'string' ? {} : serialiseErrors(first);
      const text = typeof first === 'string' ? first : msg;
      write(
        JSON.stringify({
          level: LEVELS[level],
          time: Date.now(),
          ...options.bindings,
          ...fields,
          msg: text,
        }) + '\n',
      );
    };
  return { debug: make('debug'), info: make('info'), warn: make('warn'), error: make('error') };
}

// JSON.stringify turns an Error into `{}`; keep its message (and code) readable in the log.
function serialiseErrors(obj: object): Record<string, unknown> {
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
