// What a fake command runner answers: a program that ran and exited 0 with nothing to say, unless
// the test says otherwise (its exit code, its output, a missing program).
import type { CommandResult } from '../exec/run-command.ts';

/** `ok` follows the exit code unless given. */
export function commandResult(
  command: string,
  args: readonly string[],
  fields: Partial<CommandResult> = {},
): CommandResult {
  const exitCode = fields.exitCode === undefined ? 0 : fields.exitCode;
  return {
    command,
    args,
    exitCode,
    signal: null,
    stdout: '',
    stderr: '',
    missing: false,
    timedOut: false,
    ok: exitCode === 0,
    durationMs: 1,
    ...fields,
  };
}
