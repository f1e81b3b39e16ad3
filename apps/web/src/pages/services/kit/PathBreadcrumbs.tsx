// Where the reader is in a tree of folders (a backup, a snapshot, a shared folder, the storage a
// share link picks from), as a trail: the root's name, then each folder's. Every part but the last
// opens its folder; the last is where the reader is.
import './path-breadcrumbs.css';

/** A path's folder names from the root: `/a/b` and `a/b` are both `a`, `b`; `/` and `` none. */
export const pathNames = (path: string): string[] => path.split('/').filter((name) => name !== '');

export function PathBreadcrumbs({
  label,
  root,
  names,
  onOpen,
  testId,
}: {
  /** The trail's name for screen readers. */
  label: string;
  /** The first part's words: the tree itself. */
  root: string;
  /** The open folder's names from the root. */
  names: readonly string[];
  /** Opens the folder these names lead to (none: the root). */
  onOpen: (names: string[]) => void;
  testId?: string;
}) {
  const parts = [root, ...names];
  return (
    <nav aria-label={label} className="path-crumbs" data-testid={testId}>
      <ol>
        {parts.map((part, depth) => (
          // A part's depth names it: the same name may stand twice in a path.
          <li key={depth}>
            {depth === parts.length - 1 ? (
              <span aria-current="location">{part}</span>
            ) : (
              <button type="button" className="folder-link" onClick={() => onOpen(names.slice(0, depth))}>
                {part}
              </button>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}
