// A subuser's second factor: TOTP (RFC 6238, through otplib: SHA-1, 6 digits, 30-second steps, as
// every authenticator app expects) and one-time backup codes. The TOTP secret must be read back to
// check a code, so it is sealed (crypto/server-keys.ts), never kept plain; a backup code need only
// be recognised, so an HMAC of it under a server key is kept, after that key's id
// (`<key id>.<hex>`; bare hex before key ids). After a rotation of the server's secret a code is
// looked up under the current key and the previous ones; it cannot be hashed again under the new
// one (only its HMAC is kept), so codes made before stop working once the previous secret is
// dropped: `ops secrets reseal` counts them, and the owner makes new ones. A code is accepted one step either
// side of now (a phone's clock a little off, a code typed as it turned over), and never twice:
// the step it was made for must be later than the last one accepted.
import { createHmac, randomBytes } from 'node:crypto';
import { generateSecret, generateURI, verify } from 'otplib';
import { SUBUSER_BACKUP_CODES, TOTP_DIGITS, TOTP_ISSUER, TOTP_PERIOD_SECONDS } from '@debesis/contract';
import {
  allKeys,
  createSealer,
  deriveServerKeys,
  keyId,
  type ServerSecret,
} from '../../crypto/server-keys.ts';

const KEY_SCOPE = 'debesis subusers';
/** base32's letters, as backup codes are written (no 0/1/8/9 to mistake for O/I/B/g). */
const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

export interface SecondFactor {
  /** A new secret (160 bits, base32) and the URI its QR code holds. */
  newSecret(label: string): { secret: string; uri: string; sealed: string };
  /** The secret of a sealed one, for showing a set-up again; undefined when sealed under none of the keys. */
  unseal(sealed: string): string | undefined;
  /**
   * The time step a code is right for, given the sealed secret and the last step taken (a code of
   * that step or earlier is refused: it was used), or undefined.
   */
  check(sealed: string, code: string, lastStep: number | null, at: Date): Promise<number | undefined>;
  /** SUBUSER_BACKUP_CODES new codes as shown (`abcde-fghij`), and the hashes to keep. */
  newBackupCodes(): { codes: string[]; hashes: string[] };
  /**
   * The hashes a typed backup code may be kept as (any case, with or without its hyphen): under
   * the current key (what newBackupCodes keeps), then under each previous one, each also in the
   * form from before key ids.
   */
  backupCodeHashes(code: string): string[];
}

/** The start of every backup code hash made under the current key (`ops secrets reseal` counts the others). */
export const backupCodeHashPrefix = (serverSecret: ServerSecret) =>
  `${keyId(deriveServerKeys(serverSecret, KEY_SCOPE, 'backup codes').current)}.`;

/** The sealer of TOTP secrets, set up or pending (also `ops secrets reseal`'s). */
export const totpSealer = (serverSecret: ServerSecret) =>
  createSealer(deriveServerKeys(serverSecret, KEY_SCOPE, 'totp seal'));

export function createSecondFactor(serverSecret: ServerSecret): SecondFactor {
  const sealer = totpSealer(serverSecret);
  const codeKeys = deriveServerKeys(serverSecret, KEY_SCOPE, 'backup codes');
  const hmacUnder = (key: Buffer, code: string) =>
    createHmac('sha256', key)
      .update(code.toLowerCase().replace(/[^a-z2-7]/g, ''))
      .digest('hex');
  const hashUnder = (key: Buffer, code: string) => `${keyId(key)}.${hmacUnder(key, code)}`;

  return {
    newSecret(label) {
      const secret = generateSecret();
      const uri = generateURI({
        issuer: TOTP_ISSUER,
        label,
        secret,
        digits: TOTP_DIGITS,
        period: TOTP_PERIOD_SECONDS,
      });
      return { secret, uri, sealed: sealer.seal(secret) };
    },
    unseal: (sealed) => sealer.unseal(sealed),
    async check(sealed, code, lastStep, at) {
      const secret = sealer.unseal(sealed);
      if (!secret || !/^\d{6}$/.test(code)) return undefined;
      const result = await verify({
        secret,
        token: code,
        epoch: Math.floor(at.getTime() / 1000),
        period: TOTP_PERIOD_SECONDS,
        digits: TOTP_DIGITS,
        epochTolerance: TOTP_PERIOD_SECONDS,
        ...(lastStep === null ? {} : { afterTimeStep: lastStep }),
      });
      return result.valid ? Math.floor(at.getTime() / 1000 / TOTP_PERIOD_SECONDS) + result.delta : undefined;
    },
    newBackupCodes() {
      const codes = Array.from({ length: SUBUSER_BACKUP_CODES }, () => {
        const letters = [...randomBytes(10)].map((byte) => BASE32[byte & 31]).join('');
        return `${letters.slice(0, 5)}-${letters.slice(5)}`;
      });
      return { codes, hashes: codes.map((code) => hashUnder(codeKeys.current, code)) };
    },
    backupCodeHashes: (code) =>
      allKeys(codeKeys).flatMap((key) => [hashUnder(key, code), hmacUnder(key, code)]),
  };
}
