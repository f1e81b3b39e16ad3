// The files a page hands the browser to save (an object URL clicked as a download link),
// caught instead of saved: a test reads back each file's name and contents.
import { vi } from 'vitest';

export interface CaughtDownload {
  name: string;
  blob: Blob | undefined;
}

/** From now on, the downloads the page starts are caught into the list returned, in order. */
export function catchDownloads(): CaughtDownload[] {
  const saved: CaughtDownload[] = [];
  let last: Blob | undefined;
  Object.assign(URL, {
    createObjectURL: vi.fn((blob: Blob) => {
      last = blob;
      return 'blob:download';
    }),
    revokeObjectURL: vi.fn(),
  });
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push({ name: this.download, blob: last });
  });
  return saved;
}
