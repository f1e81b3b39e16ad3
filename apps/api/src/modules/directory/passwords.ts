// The hashes passwords are kept as. A service user's password becomes two, the only forms it is
// kept in: SHA-512 crypt(3) (`$6$salt$…`, what /etc/shadow, sshd, pure-ftpd and slapd check) and
// the NT hash (MD4 of the UTF-16LE password, upper-case hex, what Samba's passdb holds). unixcrypt
// computes the first with node:crypto and matches `openssl passwd -6`; hash-wasm's MD4 the second,
// since OpenSSL 3 (and so node:crypto) no longer offers MD4. hash-wasm's bcrypt makes htpasswd's.
import { randomBytes } from 'node:crypto';
import { bcrypt, md4 } from 'hash-wasm';
import { encrypt, verify } from 'unixcrypt';

/** crypt(3)'s salt alphabet. */
const SALT_ALPHABET = './0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** The longest salt SHA-512 crypt uses (96 bits of randomness). */
const SALT_LENGTH = 16;

export interface PasswordHashes {
  crypt: string;
  nt: string;
}

function salt(): string {
  // 64 symbols: a byte's low 6 bits pick one without bias.
  return [...randomBytes(SALT_LENGTH)].map((byte) => SALT_ALPHABET[byte & 63]).join('');
}

export function sha512Crypt(password: string, withSalt: string = salt()): string {
  return encrypt(password, `$6$${withSalt}`);
}

export function verifySha512Crypt(password: string, hash: string): boolean {
  return verify(password, hash);
}

/**
 * bcrypt (`$2a$`, cost 10), the hash htpasswd files hold: what a backup client's REST login is
 * checked against by the node's restic REST server (rclone).
 */
export async function bcryptHash(password: string): Promise<string> {
  return bcrypt({ password, salt: randomBytes(16), costFactor: 10, outputType: 'encoded' });
}

export async function ntHash(password: string): Promise<string> {
  return (await md4(new Uint8Array(Buffer.from(password, 'utf16le')))).toUpperCase();
}

export async function hashWorkspacePassword(password: string): Promise<PasswordHashes> {
  return { crypt: sha512Crypt(password), nt: await ntHash(password) };
}
