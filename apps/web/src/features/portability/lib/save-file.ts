/**
 * Hands a downloaded file to the browser's save dialog. The API needs the bearer token, which a plain link
 * cannot send, so the file is fetched first and saved from memory.
 */
export function saveFile(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started by now; the object URL is only needed for the click.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** A file name from a digest's name: no path separators or control characters, never empty. */
export function fileNameOf(name: string, extension: string): string {
  const base = name.replace(/[\p{Cc}/\\:*?"<>|]+/gu, ' ').trim() || 'digest';
  return `${base}.${extension}`;
}
