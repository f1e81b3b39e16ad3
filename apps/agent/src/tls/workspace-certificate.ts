// A workspace's own TLS certificate for the daemons that offer TLS at its address (FTPS, LDAPS and
// StartTLS): self-signed, an EC P-256 key, for the address (CN and an IP subjectAltName, so a
// client that pins it or takes it as its CA checks the name too), valid ten years. Kept as one
// PEM file holding the certificate and then the key (pure-ftpd reads that; slapd is given the
// file as both its certificate and its key), root only, and made again only when the address
// changes. Each feature keeps its own copy in its own folder: a daemon's namespace holds only its
// feature's folder.
import { readFile, rm } from 'node:fs/promises';
import type { CommandRunner } from '../exec/run-command.ts';
import { writeIfChanged } from '../fs/write-if-changed.ts';
import { exists } from '../system/host.ts';

export interface CertificateFiles {
  /** The certificate and its key, PEM, 0600. */
  pem: string;
  /** The address the certificate was made for (one line). */
  madeFor: string;
}

/** Makes the certificate unless the one there was made for `address`; says what it did. */
export async function ensureWorkspaceCertificate(
  address: string,
  files: CertificateFiles,
  run: CommandRunner,
): Promise<string[]> {
  const madeFor = await readFile(files.madeFor, 'utf8').catch(() => undefined);
  if ((await exists(files.pem)) && madeFor === `${address}\n`) return [];
  const key = `${files.pem}.key`;
  const cert = `${files.pem}.crt`;
  try {
    await run(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '3650',
        '-subj',
        `/CN=${address}`,
        '-addext',
        `subjectAltName=IP:${address}`,
        '-keyout',
        key,
        '-out',
        cert,
      ],
      { check: true },
    );
    const pem = (await readFile(cert, 'utf8')) + (await readFile(key, 'utf8'));
    await writeIfChanged(files.pem, pem, { mode: 0o600 });
    await writeIfChanged(files.madeFor, `${address}\n`, { mode: 0o600 });
  } finally {
    await rm(key, { force: true });
    await rm(cert, { force: true });
  }
  return [`made the TLS certificate ${files.pem} for ${address}`];
}
