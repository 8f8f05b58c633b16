import sharp from 'sharp';

export interface RenderOptions {
  width?: number;
  height?: number;
  quality?: number;
  resize?: 'cover' | 'contain' | 'fill';
  format?: 'origin' | 'webp' | 'avif';
}

/** Image transformation for render/image, with sharp; refuses inputs over 50 megapixels. */
export async function renderImage(file: string, options: RenderOptions): Promise<{ data: Buffer; contentType: string }> {
  let image = sharp(file, { limitInputPixels: 50_000_000 }).rotate();
  if (options.width || options.height) {
    image = image.resize({ width: options.width, height: options.height, fit: options.resize ?? 'cover', withoutEnlargement: true });
  }
  const quality = options.quality ?? 80;
  if (options.format === 'avif') return { data: await image.avif({ quality, effort: 2 }).toBuffer(), contentType: 'image/avif' };
  if (options.format === 'webp') return { data: await image.webp({ quality }).toBuffer(), contentType: 'image/webp' };
  const { data, info } = await image.toBuffer({ resolveWithObject: true });
  return { data, contentType: `image/${info.format === 'jpeg' ? 'jpeg' : info.format}` };
}
