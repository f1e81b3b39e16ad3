// A VPN user's inline .ovpn: everything the official clients need in one file they import as it
// is (the CA, the user's certificate and key, the workspace's tls-crypt key), and the username
// and password asked for at connect (auth-user-pass), never stored in it.
import { isIPv4 } from 'node:net';

export interface ClientConfOptions {
  user: string;
  certGeneration: number;
  address: string;
  port: number;
  ca: string;
  cert: string;
  key: string;
  tlsCrypt: string;
}

const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----\r?\n[A-Za-z0-9+/=\r\n]+-----END \1-----/;
const STATIC_KEY =
  /-----BEGIN OpenVPN Static key V1-----\r?\n[0-9a-f\r\n]+-----END OpenVPN Static key V1-----/;

/** The first PEM block of `text` (easy-rsa's certificates start with a text dump), or a throw. */
export function pemBlock(text: string, what: string, pattern: RegExp = PEM_BLOCK): string {
  const match = pattern.exec(text);
  if (!match) throw new Error(`${what} holds no PEM block`);
  return match[0].replace(/\r/g, '');
}

export function renderClientConf(options: ClientConfOptions): string {
  if (!isIPv4(options.address)) throw new Error(`${options.address}: no IPv4 address to connect to`);
  if (!Number.isInteger(options.port) || options.port < 1 || options.port > 65535)
    throw new Error(`${options.port} is no UDP port`);
  // Only blocks of the kinds expected reach the file: nothing else can close a tag early.
  const inline = (tag: string, body: string) => [`<${tag}>`, body, `</${tag}>`];
  return (
    [
      `# Debesis VPN: ${options.user} (certificate ${options.certGeneration})`,
      'client',
      'dev tun',
      'proto udp',
      `remote ${options.address} ${options.port}`,
      'resolv-retry infinite',
      'nobind',
      // A client that stops (told to halt, or closed) says so: its session ends at once on the
      // server instead of a minute later.
      'explicit-exit-notify',
      'persist-key',
      'persist-tun',
      'remote-cert-tls server',
      'auth-user-pass',
      'auth-nocache',
      'verb 3',
      ...inline('ca', pemBlock(options.ca, 'the CA certificate')),
      ...inline('cert', pemBlock(options.cert, 'the client certificate')),
      ...inline('key', pemBlock(options.key, 'the client key')),
      ...inline('tls-crypt', pemBlock(options.tlsCrypt, 'the tls-crypt key', STATIC_KEY)),
    ].join('\n') + '\n'
  );
}
