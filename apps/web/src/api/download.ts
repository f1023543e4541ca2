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
