import { PHOTO_ACCEPTED_TYPES, PHOTO_MAX_BYTES, PHOTO_MIN_SIDE } from '@digest/contracts';

/** What the file picker offers (docs/product.md §5: jpg, png, svg, gif). */
export const PHOTO_ACCEPT = '.jpg,.jpeg,.png,.gif,.svg,image/jpeg,image/png,image/gif,image/svg+xml';

export const PHOTO_TYPE_MESSAGE = 'Choose an SVG, PNG, JPG or GIF image.';
export const PHOTO_SIZE_MESSAGE = 'This image is larger than 5 MB. Choose a smaller one.';
export const PHOTO_DIMENSIONS_MESSAGE = 'This image is too small: it must be at least 100×100 pixels.';
export const PHOTO_UNREADABLE_MESSAGE = 'This file could not be opened as an image.';

/** Longest side of the PNG sent to the server. */
const OUTPUT_MAX_SIDE = 512;
/** Shortest side of the PNG sent (the server refuses less than 100×100). */
const OUTPUT_MIN_SIDE = 256;

export interface Area {
  x: number;
  y: number;
  width: number;
  height: number;
}

function isAcceptedType(file: File): boolean {
  if ((PHOTO_ACCEPTED_TYPES as readonly string[]).includes(file.type)) return true;
  // Some systems give no MIME type: fall back to the extension.
  return file.type === '' && /\.(jpe?g|png|gif|svg)$/i.test(file.name);
}

export function loadImage(src: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const image = new Image();
    image.onload = () => resolve(image);
    image.onerror = () => reject(new Error(PHOTO_UNREADABLE_MESSAGE));
    image.src = src;
  });
}

/**
 * Client-side checks of docs/product.md §5/§9 (type, ≤ 5 MB, ≥ 100×100 px). Resolves with an object URL of the
 * image for the cropper (the caller revokes it), or with the message to show.
 */
export async function openPhoto(file: File): Promise<{ url: string } | { error: string }> {
  if (!isAcceptedType(file)) return { error: PHOTO_TYPE_MESSAGE };
  if (file.size > PHOTO_MAX_BYTES) return { error: PHOTO_SIZE_MESSAGE };
  const url = URL.createObjectURL(file);
  try {
    const image = await loadImage(url);
    if (image.naturalWidth < PHOTO_MIN_SIDE || image.naturalHeight < PHOTO_MIN_SIDE) {
      URL.revokeObjectURL(url);
      return { error: PHOTO_DIMENSIONS_MESSAGE };
    }
    return { url };
  } catch {
    URL.revokeObjectURL(url);
    return { error: PHOTO_UNREADABLE_MESSAGE };
  }
}

/** Draws the chosen square of the image into a PNG (docs/product.md §4: Crop & Set Avatar uploads a png). */
export async function cropToPng(src: string, area: Area): Promise<Blob> {
  const image = await loadImage(src);
  const side = Math.round(Math.min(OUTPUT_MAX_SIDE, Math.max(OUTPUT_MIN_SIDE, area.width)));
  const canvas = document.createElement('canvas');
  canvas.width = side;
  canvas.height = side;
  const context = canvas.getContext('2d');
  if (!context) throw new Error('This browser cannot crop images.');
  context.imageSmoothingQuality = 'high';
  context.drawImage(image, area.x, area.y, area.width, area.height, 0, 0, side, side);
  return new Promise((resolve, reject) => {
    canvas.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error('The image could not be cropped.'))),
      'image/png',
    );
  });
}
