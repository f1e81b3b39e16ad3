import { describe, expect, it } from 'vitest';
import { CommandError, runCommand } from './run-command.ts';

const node = process.execPath;

describe('runCommand', () => {
  it('captures stdout, stderr and a zero exit code', async () => {
    const result = await runCommand(node, ['-e', 'console.log("out"); console.error("err")']);
    expect(result).toMatchObject({ exitCode: 0, ok: true, stdout: 'out\n', stderr: 'err\n', missing: false });
  });

  it('returns a non-zero exit code without throwing, and throws with check', async () => {
    const result = await runCommand(node, ['-e', 'console.error("bad config"); process.exit(3)']);
    expect(result).toMatchObject({ exitCode: 3, ok: false, timedOut: false });
    const error: unknown = await runCommand(node, ['-e', 'console.error("bad config"); process.exit(3)'], {
      check: true,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CommandError);
    expect((error as CommandError).message).toBe(`${node} exited with code 3: bad config`);
  });

  it('passes arguments as they are, without a shell', async () => {
    const tricky = ['$HOME', '; rm -rf /', '"quoted" \'single\'', 'a b'];
    const result = await runCommand(node, [
      '-e',
      'console.log(JSON.stringify(process.argv.slice(1)))',
      ...tricky,
    ]);
    expect(JSON.parse(result.stdout)).toEqual(tricky);
  });

  it('writes input to stdin', async () => {
    const result = await runCommand(node, ['-e', 'process.stdin.pipe(process.stdout)'], {
      input: 'secret\n',
    });
    expect(result.stdout).toBe('secret\n');
  });

  it('reports a program that is not installed as missing', async () => {
    const result = await runCommand('debesis-no-such-program', ['-s', 'smb.conf']);
    expect(result).toMatchObject({ missing: true, ok: false, exitCode: null });
    await expect(runCommand('debesis-no-such-program', [], { check: true })).rejects.toThrow(
      'program missing: debesis-no-such-program is not installed',
    );
  });

  it('does not mistake a missing working folder for a missing program', async () => {
    const result = await runCommand(node, ['-e', '0'], { cwd: '/nonexistent/debesis' });
    expect(result.missing).toBe(false);
    expect(result.stderr).toMatch(/does not exist/);
  });

  it('kills a program that runs past its time-out', async () => {
    const result = await runCommand(node, ['-e', 'setInterval(() => {}, 1000)'], { timeoutMs: 100 });
    expect(result).toMatchObject({ timedOut: true, ok: false, signal: 'SIGTERM', exitCode: null });
    await expect(
      runCommand(node, ['-e', 'setInterval(() => {}, 1000)'], { timeoutMs: 100, check: true }),
    ).rejects.toThrow('timed out');
  });

  it('returns when the program exits even if a daemon it started keeps the output open', async () => {
    const script =
      'require("child_process").spawn(process.execPath, ["-e", "setTimeout(() => {}, 1500)"], ' +
      '{ stdio: "inherit", detached: true }).unref(); console.log("started")';
    const result = await runCommand(node, ['-e', script], { timeoutMs: 10_000 });
    expect(result).toMatchObject({ exitCode: 0, ok: true, timedOut: false, stdout: 'started\n' });
  });
});
