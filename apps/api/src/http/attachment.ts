// Content-Disposition for a file the browser saves (RFC 6266): any name a customer gave a file,
// in UTF-8 (filename*), with a plain ASCII fallback for clients that read only `filename`.
// Quotes, backslashes and control characters never reach the header.

export function attachmentDisposition(
  name: string,
  disposition: 'attachment' | 'inline' = 'attachment',
): string {
  // Control characters (C0 and DEL) out: none may reach a header.
  const cleaned =
    [...name]
      .filter((char) => char >= ' ' && char !== '\u007f')
      .join('')
      .trim() || 'download';
  const ascii =
    cleaned
      .normalize('NFKD')
      .replace(/[^\x20-\x7e]/g, '')
      .replace(/["\\%]/g, '_')
      .trim() || 'download';
  const encoded = encodeURIComponent(cleaned).replace(
    /['()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${disposition}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
