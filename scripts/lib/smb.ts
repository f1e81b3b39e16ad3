// smbclient on this host against a live workspace's share, as the tests and benches that stand
// outside the product use it (SMB3, a 5 s connect time-out, bounded by `timeoutMs`).
import { spawnSync } from 'node:child_process';

export interface ShareLogin {
  address: string;
  share: string;
  user: string;
  password: string;
}

/** Runs smbclient's `command` (`put a a`, `get "x/y" z`, `ls`) in `cwd`, where its local files are. */
export function smbclient(login: ShareLogin, command: string, cwd: string, timeoutMs = 20_000) {
  const result = spawnSync(
    'smbclient',
    [
      `//${login.address}/${login.share}`,
      '-U',
      `${login.user}%${login.password}`,
      '-m',
      'SMB3',
      '-t',
      '5',
      '-c',
      command,
    ],
    { cwd, encoding: 'utf8', timeout: timeoutMs },
  );
  return { ok: result.status === 0, output: `${result.stdout}\n${result.stderr}` };
}
