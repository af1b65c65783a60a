import { vi } from 'vitest';

export interface Download {
  fileName: string;
  blob: Blob;
}

/**
 * Catches the files a screen downloads (a Blob URL clicked through an anchor with `download`), which the test
 * DOM cannot save: the test reads each file's name and content instead. Undone after each test (ui-setup.ts).
 */
export function catchDownloads(): Download[] {
  const downloads: Download[] = [];
  const blobs = new Map<string, Blob>();
  vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
    const url = `blob:download-${blobs.size + 1}`;
    blobs.set(url, blob as Blob);
    return url;
  });
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    const blob = blobs.get(this.href);
    if (blob && this.download) downloads.push({ fileName: this.download, blob });
  });
  return downloads;
}

/** The test DOM has no print dialog: the spy tells whether the screen asked the browser to print. */
export function catchPrint() {
  return vi.spyOn(window, 'print').mockImplementation(() => {});
}
