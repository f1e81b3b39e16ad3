// What a page sent, as a test reads it back: the changes a test's msw handlers were asked for, in
// the order they came, each with its method, path and JSON body.
export interface ReceivedRequest {
  method: string;
  path: string;
  /** The JSON body; null when the request had none (a DELETE). */
  body: unknown;
}

/** Reads `request` (a clone: the handler may still read it) onto the end of `received`. */
export async function recordRequest(received: ReceivedRequest[], request: Request): Promise<void> {
  const text = await request.clone().text();
  received.push({
    method: request.method,
    path: new URL(request.url).pathname,
    body: text ? (JSON.parse(text) as unknown) : null,
  });
}
