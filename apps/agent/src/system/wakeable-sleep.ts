// The pause between a loop's rounds, which a wake cuts short: the agent's poll loop (woken by a
// wake file or a stop) and the node-call loop (by a stop) must not wait a whole pause out.

export interface WakeableSleep {
  /** Resolves after `ms`, or at once when woken meanwhile, woken since the last one, or `over`. */
  sleep(ms: number): Promise<void>;
  /** Ends the pause under way; with none under way, the next one. */
  wake(): void;
}

/** `over`: the loop is ending, so no pause is taken at all. */
export function wakeableSleep(over: () => boolean): WakeableSleep {
  let woken = false;
  let interrupt: (() => void) | undefined;
  return {
    sleep(ms) {
      if (woken || over()) {
        woken = false;
        return Promise.resolve();
      }
      return new Promise((resolve) => {
        const done = () => {
          clearTimeout(timer);
          interrupt = undefined;
          resolve();
        };
        const timer = setTimeout(done, ms);
        interrupt = done;
      });
    },
    wake() {
      if (interrupt) interrupt();
      else woken = true;
    },
  };
}
