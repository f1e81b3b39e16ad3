// How a value the customer chose is written into each config file format, one place per format.
// A renderer never splices customer text into a file by hand: it goes through its format here,
// so a newline, a continuation or a format's own expansion (Samba's %U) cannot add a parameter or
// a section. Names (users, groups, shares, paths) are checked against strict patterns before any
// renderer sees them (accounts/validate-accounts.ts, samba/resolve-shares.ts); what is left to
// escape is free text. A new format (OpenVPN, ganesha, slapd.conf) adds its object below.

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
