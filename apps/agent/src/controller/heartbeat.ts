// The node's heartbeat, on its own timer: a report (the node's capacity with the last known state
// of every workspace) whenever none has reached the API for `everyMs`, so that however long a pass
// takes, the API never counts the node offline while it runs (the API's NODE_OFFLINE_AFTER_MS is
// 60 s). Passes report on their own; this only fills the silences between them.
import { errorMessage, type Logger } from '../logger.ts';

export interface HeartbeatOptions {
  everyMs: number;
  /** When a report last reached the API (ms since the epoch); undefined: none yet. */
  lastReportAt(): number | undefined;
  /** Sends the report; resolves once the API has it. */
  send(): Promise<void>;
  logger: Logger;
}

export interface Heartbeat {
  start(): void;
  /** Sends a report now (unless one from here is on its way already). */
  beat(): Promise<void>;
  stop(): void;
}

export function createHeartbeat(options: HeartbeatOptions): Heartbeat {
  let timer: ReturnType<typeof setInterval> | undefined;
  let startedAt = Date.now();
  let sending: Promise<void> | undefined;

  const beat = () => {
    sending ??= options
      .send()
      .catch((error: unknown) =>
        // The pass says loudly when the API is away; this only says it missed a beat.
        options.logger.debug({ err: error }, `heartbeat failed: ${errorMessage(error)}`),
      )
      .finally(() => (sending = undefined));
    return sending;
  };

  return {
    start() {
      startedAt = Date.now();
      // Looked at four times a period, so a beat is never more than a quarter period late.
      timer ??= setInterval(
        () => {
          const last = options.lastReportAt() ?? startedAt;
          if (Date.now() - last >= options.everyMs) void beat();
        },
        Math.max(1, Math.floor(options.everyMs / 4)),
      );
    },
    beat,
    stop() {
      clearInterval(timer);
      timer = undefined;
    },
  };
}
