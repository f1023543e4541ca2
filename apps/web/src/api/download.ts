import type { DownloadResult } from './client';

/** Saves a download the client resolved (`{ blob, filename }`) through a temporary object URL. */
export function saveDownload(download: DownloadResult, fallbackName: string): void {
  const url = URL.createObjectURL(download.blob);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = download.filename || fallbackName;
  anchor.rel = 'noopener';
  anchor.style.display = 'none';
  document.body.appendChild(anchor);
  anchor.click();
  anchor.remove();
  // Some browsers read the URL after the click handler returned.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** A signed link to a file (`POST …/download-url`): the browser fetches it itself. */
export interface DownloadLink {
  url: string;
  expiresAt: string;
}

/**
 * Starts the browser's own download of a link: the file streams to the disk through the browser's
 * download manager (progress, pause, resume), never through the page's memory — what a file of many
 * GB needs. The server names the file (Content-Disposition: attachment), so the page stays.
 */
export function followDownloadLink(link: DownloadLink): void {
  const anchor = document.createElement('a');
  anchor.href = link.url;
  anchor.rel = 'noopener';
  anchor.style.display = 'none';
  document.body.appendChild(anchor);
  anchor.click();
  anchor.remove();
}
