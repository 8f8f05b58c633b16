/** The image types the logo and banner buckets take, with the extension their stored names end in. */
export const IMAGE_UPLOAD_EXTENSIONS = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp' } as const;
export type UploadImageType = keyof typeof IMAGE_UPLOAD_EXTENSIONS;
export const IMAGE_UPLOAD_TYPES = Object.keys(IMAGE_UPLOAD_EXTENSIONS) as UploadImageType[];

export const isUploadImageType = (type: string): type is UploadImageType => Object.hasOwn(IMAGE_UPLOAD_EXTENSIONS, type);

/** A file's name without its extension, as stored: letters, digits, underscore and hyphen, at most 60 characters. */
export function sanitizeBaseName(name: string): string {
  const base = name.includes('.') ? name.slice(0, name.lastIndexOf('.')) : name;
  const cleaned = base
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9_-]+/g, '-')
    .replace(/^[-_]+|[-_]+$/g, '')
    .slice(0, 60);
  return cleaned || 'image';
}

/**
 * `{folder}/{timestamp}-{sanitised name}.{extension of its type}`: a new object
 * for every upload (nothing is overwritten), in the shape storage accepts from
 * the browser, ending in the extension of the image's own type.
 */
export function objectNameFor(folder: string, file: { name: string; type: UploadImageType }, now = Date.now()): string {
  return `${folder}/${now}-${sanitizeBaseName(file.name)}.${IMAGE_UPLOAD_EXTENSIONS[file.type]}`;
}
