// The id that ties a request's log line, its error report and the answer's `x-request-id`
// together. A caller's id (a proxy's or a client's trace id) is kept only when it is plainly an
// id: anything else, such as newlines, JSON or a megabyte, would be written into our logs and
// headers as given, so it is replaced by one of ours.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export const REQUEST_ID_HEADER = 'x-request-id';

/** A UUID, or any short run of letters, digits, dots, underscores and hyphens. */
const WELL_FORMED = /^[A-Za-z0-9._-]{1,64}$/;

export function requestIdOf(request: Pick<IncomingMessage, 'headers'>): string {
  const given = request.headers[REQUEST_ID_HEADER];
  return typeof given === 'string' && WELL_FORMED.test(given) ? given : randomUUID();
}
