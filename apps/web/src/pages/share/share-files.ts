// Paths inside a shared folder and what the browser can show of a file, for the share page.

/**
 * Names whose type the API shows in place with `inline=1` (its download-http.ts: images but SVG,
 * video, audio, PDF, plain text); any other file is always an attachment, so it gets no View link.
 */
const VIEWABLE =
  /\.(png|jpe?g|gif|webp|avif|mp4|m4v|webm|ogv|mov|mkv|mp3|ogg|oga|opus|wav|flac|m4a|aac|weba|pdf|txt|text|log|ini|conf)$/i;

export function isViewable(name: string): boolean {
  return VIEWABLE.test(name);
}

/** The names of a path inside the link ('' is the shared item itself). */
export function pathNames(path: string): string[] {
  return path === '' ? [] : path.split('/');
}

export function childPath(folder: string, name: string): string {
  return folder === '' ? name : `${folder}/${name}`;
}

/** The page's URL query for a place inside the link (none for the shared item itself). */
export function placeSearch(path: string): string {
  return path === '' ? '' : `?${new URLSearchParams({ path }).toString()}`;
}
