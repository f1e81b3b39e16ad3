// A node's error text as a customer may read it: what failed, without the node's own paths
// (`/var/lib/debesis/data/nodes/local/ws/<id>/…` told customers how the host is laid out). A path
// inside the workspace becomes the path the customer knows (`shares/x`); any other absolute path
// becomes its last part; a device (/dev/…) stays as it is. The full text stays in the database, for the logs and `ops services show`.

/** An absolute path: a slash not inside a word or a URL, then anything up to a space or quote. */
const ABSOLUTE_PATH = /(?<![\w.:/-])\/[^\s'"`,;()<>]+/g;
/** The workspace's own root on a node: `…/ws/<workspace>/`. */
const WORKSPACE_ROOT = /^.*?\/ws\/[^/]+\/?/;

function customerPath(path: string): string {
  const trailing = /[.:]+$/.exec(path)?.[0] ?? '';
  const bare = trailing ? path.slice(0, -trailing.length) : path;
  // A device (`/dev/loop7`) says what is busy and nothing of the node's layout.
  if (bare.startsWith('/dev/')) return path;
  if (WORKSPACE_ROOT.test(bare)) return (bare.replace(WORKSPACE_ROOT, '') || '.') + trailing;
  const parts = bare.split('/').filter(Boolean);
  return (parts.length > 0 ? parts[parts.length - 1]! : '/') + trailing;
}

export function withoutNodePaths(text: string): string;
export function withoutNodePaths(text: string | null): string | null;
export function withoutNodePaths(text: string | null): string | null {
  return text === null ? null : text.replace(ABSOLUTE_PATH, customerPath);
}

/**
 * A node's params as a customer may read them: each text value without the node's paths (an
 * apply failure's line keeps the node's words in `detail`, and a driver's params may name files).
 */
export function paramsWithoutNodePaths(params: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(params).map(([key, value]) => [
      key,
      typeof value === 'string' ? withoutNodePaths(value) : value,
    ]),
  );
}
