import { describe, expect, it } from 'vitest';
import { streamCommand } from './stream-command.ts';

const env = { PATH: process.env.PATH ?? '/usr/bin:/bin' };

describe('streamCommand', () => {
  it('hands over each line as it completes, the last one without a newline too', async () => {
    const lines: string[] = [];
    const result = await streamCommand(
      'sh',
      ['-c', 'printf "a\\nbé\\n"; sleep 0.05; printf "c"; echo oops >&2'],
      {
        env,
        onLine: (line) => void lines.push(line),
      },
    );
    expect(lines).toEqual(['a', 'bé', 'c']);
    expect(result).toMatchObject({ ok: true, exitCode: 0, stderr: 'oops\n', missing: false });
  });

  it('stops the program when told, and when aborted', async () => {
    let seen = 0;
    const stopped = await streamCommand('yes', [], { env, onLine: () => (++seen >= 3 ? 'stop' : undefined) });
    expect(stopped).toMatchObject({ ok: false, stopped: 'stopped' });
    expect(seen).toBeGreaterThanOrEqual(3);

    const controller = new AbortController();
    setTimeout(() => controller.abort('enough'), 50);
    const aborted = await streamCommand('sleep', ['30'], { env, signal: controller.signal });
    expect(aborted).toMatchObject({ ok: false, stopped: 'aborted', signal: 'SIGTERM' });
    expect(aborted.durationMs).toBeLessThan(5000);
  });

  it('says when the program is missing, and keeps the end of stderr', async () => {
    expect(await streamCommand('no-such-program-here', [], { env })).toMatchObject({
      ok: false,
      missing: true,
    });
    const noisy = await streamCommand(
      'sh',
      ['-c', 'i=0; while [ $i -lt 3000 ]; do echo line-$i >&2; i=$((i+1)); done; exit 3'],
      {
        env,
        stderrTailBytes: 100,
      },
    );
    expect(noisy.exitCode).toBe(3);
    expect(noisy.stderr.length).toBeLessThanOrEqual(100);
    expect(noisy.stderr.trim().endsWith('line-2999')).toBe(true);
  });
});
