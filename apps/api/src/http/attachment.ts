// Content-Disposition for a file the browser saves (RFC 6266): any name a customer gave a file,
// in UTF-8 (filename*), with a plain ASCII fallback for clients that read only `filename`.
// Quotes, backslashes and control characters never reach the header.

/**
 * What a document served from this origin (a customer's file shown in place, an invoice PDF) may
 * do here: nothing. `sandbox` gives it an opaque origin, so no script in it (an HTML or SVG file,
 * or a PDF's own JavaScript and form actions) can read the API with the viewer's cookies.
 */
export const DOCUMENT_POLICY =
  "sandbox; default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'";

/** The headers every document the API serves gets, shown in place or saved. */
export function documentHeaders(
  name: string,
  disposition: 'attachment' | 'inline' = 'attachment',
): Record<string, string> {
  return {
    'content-disposition': attachmentDisposition(name, disposition),
    'x-content-type-options': 'nosniff',
    'content-security-policy': DOCUMENT_POLICY,
  };
}

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
