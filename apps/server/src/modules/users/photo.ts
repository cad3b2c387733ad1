import { PHOTO_MAX_BYTES, PHOTO_MIN_SIDE } from '@digest/contracts';
import sharp, { type Metadata, type SharpOptions } from 'sharp';
import { photoErrors } from './users.errors';

/** Side of the stored square PNG when the upload is larger. */
export const PHOTO_OUTPUT_MAX_SIDE = 512;
/**
 * Pixels (width × height) an upload may decode to. A few bytes can declare a huge image (a
 * decompression bomb, or an SVG with width="100000"); libvips refuses it before allocating anything.
 */
export const PHOTO_MAX_INPUT_PIXELS = 40_000_000;

/** Formats accepted in, as sharp names them after reading the content (never the name or the mime type). */
const ACCEPTED_FORMATS = new Set(['jpeg', 'png', 'gif', 'svg']);

const INPUT_OPTIONS: SharpOptions = {
  limitInputPixels: PHOTO_MAX_INPUT_PIXELS,
  // The side the camera meant to be up; the EXIF orientation itself is dropped with the rest of the metadata.
  autoOrient: true,
  // Truncated or damaged pixel data is an error, not a half-grey photo.
  failOn: 'warning',
  // The first frame of an animated GIF.
  pages: 1,
};

function readError(error: unknown) {
  const message = error instanceof Error ? error.message : '';
  if (/exceeds pixel limit/i.test(message))
    return photoErrors.tooManyPixels(PHOTO_MAX_INPUT_PIXELS / 1_000_000);
  if (/unsupported image format/i.test(message)) return photoErrors.unsupportedType();
  return photoErrors.unreadable();
}

/**
 * Checks an uploaded photo by its content and re-encodes it as the PNG we store and serve: square
 * (centre crop to the short side), at most 512×512, no metadata.
 *
 * SVG is rasterised by librsvg through libvips: from a buffer it has no base URL, so it loads no
 * external resource (http, file or otherwise) and refuses external entities; entity expansion is
 * capped by libxml2. Only the PNG result is kept, so SVG is never stored or served.
 *
 * Throws an AppError (400 or 413) saying what is wrong; nothing is stored by this function.
 */
export async function normalisePhoto(input: Buffer): Promise<Buffer> {
  if (input.length > PHOTO_MAX_BYTES) throw photoErrors.tooLarge();
  if (input.length === 0) throw photoErrors.unreadable();

  let metadata: Metadata;
  try {
    metadata = await sharp(input, INPUT_OPTIONS).metadata();
  } catch (error) {
    throw readError(error);
  }
  if (!metadata.format || !ACCEPTED_FORMATS.has(metadata.format)) throw photoErrors.unsupportedType();

  const { width, height } = metadata.autoOrient;
  if (!width || !height || width < PHOTO_MIN_SIDE || height < PHOTO_MIN_SIDE) throw photoErrors.tooSmall();

  const side = Math.min(width, height, PHOTO_OUTPUT_MAX_SIDE);
  try {
    return await sharp(input, INPUT_OPTIONS)
      .resize({ width: side, height: side, fit: 'cover', position: 'centre' })
      .png({ compressionLevel: 9 })
      .toBuffer();
  } catch (error) {
    throw readError(error);
  }
}
