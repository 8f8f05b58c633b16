/** Only files whose type starts with image/ join the queue; anything else is dropped without a word (spec section 5). */
export function imageFilesOnly(files: Iterable<File>): File[] {
  return [...files].filter((file) => file.type.startsWith('image/'));
}

/** A file name reduced to letters, digits, dot, underscore and hyphen; anything else becomes an underscore. */
export function sanitizeFileName(name: string): string {
  const cleaned = name.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').replace(/[^A-Za-z0-9._-]/g, '_');
  return cleaned.length > 0 ? cleaned : 'image';
}

/** Size in whole kilobytes, as the queue shows it (at least 1 for a non-empty file). */
export function sizeInKb(bytes: number): number {
  return bytes === 0 ? 0 : Math.max(1, Math.round(bytes / 1024));
}
