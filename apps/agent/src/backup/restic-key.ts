// A restic key file made again with cheap scrypt parameters. restic stores the repository's
// master key encrypted under a key derived from the password with scrypt, calibrated at `init`
// to take ~0.5 s, and pays that on every call: a browse that should answer in a blink took
// 0.6 s before restic read anything. The agent's password is 32 random bytes, which no
// dictionary guesses, so a slow derivation protects nothing here; the key file is written
// again with N=2^10 (~2 ms), the master key unchanged.
//
// The format is restic's design document's ("Keys, Encryption and MAC"): a JSON file named by the
// SHA-256 of its content, holding `kdf: scrypt`, `N`, `r`, `p`, a 64-byte `salt` and `data`:
// IV ‖ AES-256-CTR(master key JSON) ‖ MAC. scrypt gives 64 bytes: the AES key, then the MAC key
// k ‖ r; the MAC is Poly1305-AES: Poly1305 with r and s = AES-128_k(IV), over the ciphertext.
// The old key's MAC is checked with the same code first, so a mistake here is found before
// anything is written, and the caller has restic open the repository with the new file before
// the old one goes.
import {
  createCipheriv,
  createDecipheriv,
  createHash,
  randomBytes,
  scrypt,
  timingSafeEqual,
} from 'node:crypto';

export const CHEAP_SCRYPT = { N: 1024, r: 8, p: 1 } as const;

interface ResticKeyFile {
  kdf: string;
  N: number;
  r: number;
  p: number;
  salt: string;
  data: string;
  [field: string]: unknown;
}

interface DerivedKey {
  encryption: Buffer;
  macK: Buffer;
  macR: Buffer;
}

function derive(
  password: string,
  salt: Buffer,
  params: { N: number; r: number; p: number },
): Promise<DerivedKey> {
  return new Promise((resolve, reject) =>
    scrypt(
      password,
      salt,
      64,
      { ...params, maxmem: 256 * params.N * params.r + 64 * 1024 * 1024 },
      (error, key) =>
        error
          ? reject(error)
          : resolve({
              encryption: key.subarray(0, 32),
              macK: key.subarray(32, 48),
              macR: key.subarray(48, 64),
            }),
    ),
  );
}

const littleEndian = (bytes: Uint8Array): bigint => {
  let value = 0n;
  for (let index = bytes.length - 1; index >= 0; index -= 1)
    value = (value << 8n) | BigInt(bytes[index] ?? 0);
  return value;
};

/** Poly1305 (RFC 8439 §2.5) of `message` with the 32-byte key r ‖ s. */
export function poly1305(message: Uint8Array, key: Uint8Array): Buffer {
  const r = littleEndian(key.subarray(0, 16)) & 0x0ffffffc0ffffffc0ffffffc0fffffffn;
  const s = littleEndian(key.subarray(16, 32));
  const p = (1n << 130n) - 5n;
  let accumulator = 0n;
  for (let offset = 0; offset < message.length; offset += 16) {
    const block = message.subarray(offset, offset + 16);
    accumulator = ((accumulator + littleEndian(block) + (1n << BigInt(8 * block.length))) * r) % p;
  }
  let tag = (accumulator + s) & ((1n << 128n) - 1n);
  const out = Buffer.alloc(16);
  for (let index = 0; index < 16; index += 1) {
    out[index] = Number(tag & 0xffn);
    tag >>= 8n;
  }
  return out;
}

function mac(key: DerivedKey, iv: Buffer, ciphertext: Buffer): Buffer {
  const aes = createCipheriv('aes-128-ecb', key.macK, null);
  aes.setAutoPadding(false);
  const s = aes.update(iv);
  return poly1305(ciphertext, Buffer.concat([key.macR, s]));
}

/** The master key a key file holds (restic's JSON of it), opened with `password`. */
export async function readMasterKey(
  text: string,
  password: string,
): Promise<{ file: ResticKeyFile; masterKey: Buffer }> {
  const file = JSON.parse(text) as ResticKeyFile;
  if (file.kdf !== 'scrypt') throw new Error(`the key file uses ${String(file.kdf)}, not scrypt`);
  const key = await derive(password, Buffer.from(file.salt, 'base64'), file);
  const data = Buffer.from(file.data, 'base64');
  const iv = data.subarray(0, 16);
  const ciphertext = data.subarray(16, -16);
  if (data.length < 32 || !timingSafeEqual(mac(key, iv, ciphertext), data.subarray(-16)))
    throw new Error('the password does not open the key file (its MAC does not match)');
  const decipher = createDecipheriv('aes-256-ctr', key.encryption, iv);
  return { file, masterKey: Buffer.concat([decipher.update(ciphertext), decipher.final()]) };
}

/**
 * The key file `text` (restic's, opened by `password`) made again with cheap scrypt parameters:
 * its new content and name. Throws when the password does not open it.
 */
export async function cheapKeyFile(
  text: string,
  password: string,
): Promise<{ name: string; content: string }> {
  const { file, masterKey } = await readMasterKey(text, password);
  const salt = randomBytes(64);
  const fresh = await derive(password, salt, CHEAP_SCRYPT);
  const iv = randomBytes(16);
  const cipher = createCipheriv('aes-256-ctr', fresh.encryption, iv);
  const encrypted = Buffer.concat([cipher.update(masterKey), cipher.final()]);
  const content = JSON.stringify({
    ...file,
    ...CHEAP_SCRYPT,
    salt: salt.toString('base64'),
    data: Buffer.concat([iv, encrypted, mac(fresh, iv, encrypted)]).toString('base64'),
  });
  return { name: createHash('sha256').update(content).digest('hex'), content };
}
