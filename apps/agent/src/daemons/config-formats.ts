// How a value the customer chose is written into each config file format, one place per format.
// A renderer never splices customer text into a file by hand: it goes through its format here,
// so a newline, a continuation or a format's own expansion (Samba's %U) cannot add a parameter or
// a section. Names (users, groups, shares, paths) are checked against strict patterns before any
// renderer sees them (accounts/validate-accounts.ts, samba/resolve-shares.ts); what is left to
// escape is free text. A new format (ganesha, slapd.conf) adds its object below.

/** Control characters (C0 and DEL): never part of a one-line value. */
const isControl = (char: string) => char.charCodeAt(0) < 0x20 || char === '\u007f';

export const smbConf = {
  /**
   * Free text as an smb.conf value: one line (a newline would start a new parameter), no
   * backslash (a trailing one continues the line), no `%` (Samba expands %U and friends in it),
   * whitespace collapsed and trimmed.
   */
  value: (text: string): string =>
    [...text]
      .map((char) => (isControl(char) || char === '%' || char === '\\' ? ' ' : char))
      .join('')
      .replace(/\s+/g, ' ')
      .trim(),
  /** A list parameter (valid users = a b @g): names already checked, joined by spaces. */
  list: (names: readonly string[]): string => names.join(' '),
  yesNo: (value: boolean): string => (value ? 'yes' : 'no'),
};

export const openvpnConf = {
  /**
   * One argument of an OpenVPN config line (a path). OpenVPN splits a line on whitespace, reads
   * `#` and `;` as a comment and honours quotes and backslashes, so an argument holding any of
   * those is written in double quotes with `\` and `"` escaped. A control character cannot be
   * written at all (a newline would start another directive): refused.
   */
  arg: (text: string): string => {
    if (text === '' || [...text].some(isControl))
      throw new Error(`${JSON.stringify(text.slice(0, 64))} cannot be an OpenVPN config argument`);
    return /[\s"'\\#;]/.test(text) ? `"${text.replace(/[\\"]/g, (char) => `\\${char}`)}"` : text;
  },
  /**
   * A command OpenVPN runs (auth-user-pass-verify): it splits the command again on whitespace,
   * so a path to a script may hold none, nor a quote or backslash: refused rather than escaped
   * twice.
   */
  command: (path: string): string => {
    if (!/^\/[A-Za-z0-9._/+@:,=-]+$/.test(path))
      throw new Error(`${JSON.stringify(path.slice(0, 64))} cannot be an OpenVPN script path`);
    return path;
  },
  /** Free text in a comment line: one line, control characters as spaces. */
  comment: (text: string): string =>
    [...text]
      .map((char) => (isControl(char) ? ' ' : char))
      .join('')
      .replace(/\s+/g, ' ')
      .trim(),
};

export const ganeshaConf = {
  /**
   * A value of a ganesha.conf parameter, in double quotes. Ganesha's parser reads `"` and `\` in a
   * quoted string its own way and `;`, `,`, `{`, `}` and `#` outside one, so the value may hold
   * none of `"`, `\` or a control character (a newline would end the parameter): refused, not
   * escaped. Callers pass paths, addresses and names already checked against strict patterns.
   */
  string: (text: string): string => {
    if (text === '' || /["\\]/.test(text) || [...text].some(isControl))
      throw new Error(`${JSON.stringify(text.slice(0, 64))} cannot be a ganesha.conf value`);
    return `"${text}"`;
  },
  /**
   * A bare token (an address, a network, a hostname in a client list): ganesha refuses a quoted
   * client. Only letters, digits, `.`, `-`, `:` and `/`, so it cannot end the list or the block.
   */
  token: (text: string): string => {
    if (!/^[A-Za-z0-9.:/-]+$/.test(text))
      throw new Error(`${JSON.stringify(text.slice(0, 64))} cannot be a ganesha.conf token`);
    return text;
  },
};

/**
 * A SAFE-STRING of RFC 2849: ASCII without NUL, CR or LF, not starting with a space, `:` or `<`;
 * and not ending with a space either (a reader may drop it).
 */
function ldifSafe(value: string): boolean {
  if (value.startsWith(' ') || value.startsWith(':') || value.startsWith('<') || value.endsWith(' '))
    return false;
  return [...value].every((char) => {
    const code = char.charCodeAt(0);
    return code > 0 && code < 0x80 && char !== '\n' && char !== '\r';
  });
}

export const ldif = {
  /**
   * One `name: value` line of LDIF (RFC 2849). A value that is not a safe string (a newline
   * would start another attribute or change; a leading `:` or `<` would be read as base64 or a
   * URL; non-ASCII; a trailing space a reader may drop) is written base64 (`name:: …`), which
   * carries any bytes. Names are the renderer's own and must be plain attribute names.
   */
  line: (name: string, value: string): string => {
    if (!/^[A-Za-z][A-Za-z0-9-]*$/.test(name)) throw new Error(`${JSON.stringify(name)} is not an LDIF name`);
    return ldifSafe(value)
      ? `${name}: ${value}`
      : `${name}:: ${Buffer.from(value, 'utf8').toString('base64')}`;
  },
};

export const slapdConf = {
  /**
   * One argument of a slapd.conf line in double quotes. slapd's parser drops the quotes and
   * takes the character after any `\` as it is, so `\` and `"` are escaped with `\` (a DN's own
   * escapes survive). A control character cannot be written (a newline ends the directive):
   * refused.
   */
  quoted: (text: string): string => {
    if ([...text].some(isControl))
      throw new Error(`${JSON.stringify(text.slice(0, 64))} cannot be a slapd.conf value`);
    return `"${text.replace(/[\\"]/g, (char) => `\\${char}`)}"`;
  },
};
