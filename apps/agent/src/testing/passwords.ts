// The password hashes the API hands the agent, made here for live tests: SHA-512 crypt by the
// same openssl the daemons trust, bcrypt at the lowest cost (the tests check use, not strength).
import { bcrypt } from 'hash-wasm';
import { runCommand } from '../exec/run-command.ts';

export async function sha512Crypt(password: string): Promise<string> {
  const result = await runCommand('openssl', ['passwd', '-6', '-stdin'], {
    input: `${password}\n`,
    check: true,
  });
  return result.stdout.trim();
}

export function cheapBcrypt(password: string): Promise<string> {
  return bcrypt({
    password,
    salt: new Uint8Array(16).map(() => Math.floor(Math.random() * 256)),
    costFactor: 4,
    outputType: 'encoded',
  });
}
