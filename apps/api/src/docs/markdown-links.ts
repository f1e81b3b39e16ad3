// The repository's own documentation checked as a reader meets it: every relative link in README.md
// and docs/ must land on a file (and a heading, when it names one), so a page that moves or a
// heading that is renamed fails `npm test` instead of leaving a dead link behind.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

export const REPOSITORY_ROOT = path.resolve(import.meta.dirname, '../../../..');

/** README.md, deploy/README.md and every Markdown file under docs/, as paths relative to the repository. */
export function documentationFiles(root = REPOSITORY_ROOT): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(path.join(root, dir)).flatMap((name) => {
      const relative = path.join(dir, name);
      if (statSync(path.join(root, relative)).isDirectory()) return walk(relative);
      return name.endsWith('.md') ? [relative] : [];
    });
  return ['README.md', 'deploy/README.md', ...walk('docs')];
}

/** The text outside fenced code blocks and inline code, where a link is a link. */
function proseOf(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
export function headingAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

function anchorsOf(markdown: string): Set<string> {
  const headings = markdown.replace(/^```[\s\S]*?^```/gm, '').match(/^#{1,6} .+$/gm) ?? [];
  return new Set(headings.map((line) => headingAnchor(line.replace(/^#+ /, ''))));
}

/** Every relative link of a file that names no existing file or heading, as "file: target". */
export function brokenLinks(file: string, root = REPOSITORY_ROOT): string[] {
  const markdown = readFileSync(path.join(root, file), 'utf8');
  const targets = [...proseOf(markdown).matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1] ?? '');
  return targets
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target))
    .filter((target) => {
      const [filePart = '', anchor] = target.split('#');
      const resolved =
        filePart === '' ? path.join(root, file) : path.join(root, path.dirname(file), filePart);
      if (!existsSync(resolved)) return true;
      if (anchor === undefined || statSync(resolved).isDirectory()) return false;
      return !anchorsOf(readFileSync(resolved, 'utf8')).has(anchor);
    })
    .map((target) => `${file}: ${target}`);
}
