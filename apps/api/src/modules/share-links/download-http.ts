// The HTTP side of a share link's download (RFC 9110 §14, RFC 6266): the visitor's Range read
// into the node's terms, and the answer's type and disposition.
//
// One range only: a request for several (`bytes=0-1,5-9`) is answered whole with 200, which the
// RFC allows and every resuming client and video player accepts; an unreadable Range is ignored
// the same way. If-Range goes to the node, which compares it with the file it opened.
import mime from 'mime-types';
import type { ShareDownloadPayload } from '@debesis/contract';

export function parseRange(header: string | undefined): ShareDownloadPayload['range'] {
  const match = /^bytes=(\d{0,15})-(\d{0,15})$/.exec(header?.trim() ?? '');
  if (!match) return undefined;
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return undefined;
  if (first === '') return Number(last) > 0 ? { suffix: Number(last) } : undefined;
  const start = Number(first);
  const end = last === '' ? null : Number(last);
  if (end !== null && end < start) return undefined;
  return { start, end };
}

/**
 * Types a browser may show in place: they run no script on this origin. Anything else (HTML, SVG,
 * JavaScript, unknown) is always an attachment, and even these come with a sandboxing CSP.
 */
const SHOWN_IN_PLACE =
  /^(image\/(png|jpeg|gif|webp|avif)|video\/[\w.+-]+|audio\/[\w.+-]+|application\/pdf|text\/plain)$/;

export function contentTypeOf(name: string, type: 'file' | 'zip' | undefined): string {
  if (type === 'zip') return 'application/zip';
  const found = mime.lookup(name);
  if (!found) return 'application/octet-stream';
  return found.startsWith('text/') ? `${found}; charset=utf-8` : found;
}

export function mayShowInPlace(contentType: string): boolean {
  return SHOWN_IN_PLACE.test(contentType.split(';')[0] ?? '');
}
