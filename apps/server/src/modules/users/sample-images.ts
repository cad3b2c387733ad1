/** Real images made with sharp for the photo tests (not a test file itself). */
import { randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';
import sharp from 'sharp';

export type RasterFormat = 'png' | 'jpeg' | 'gif' | 'webp' | 'tiff';

export function solidImage(format: RasterFormat, width: number, height: number, colour = '#3366cc') {
  return sharp({ create: { width, height, channels: 3, background: colour } })
    .toFormat(format)
    .toBuffer();
}

/**
 * Three vertical stripes: red on the left, green in the middle, blue on the right, each a third of
 * the width. A centre crop of a wide image keeps only green.
 */
export function stripedImage(format: RasterFormat, width: number, height: number) {
  const third = Math.floor(width / 3);
  const stripe = (colour: string, left: number, stripeWidth: number) => ({
    input: { create: { width: stripeWidth, height, channels: 3 as const, background: colour } },
    left,
    top: 0,
  });
  return sharp({ create: { width, height, channels: 3, background: '#00ff00' } })
    .composite([stripe('#ff0000', 0, third), stripe('#0000ff', width - third, third)])
    .toFormat(format)
    .toBuffer();
}

/** A PNG of random noise: it does not compress, so its size is about width × height × 3 bytes. */
export function noisePng(width: number, height: number) {
  return sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } })
    .png({ compressionLevel: 0 })
    .toBuffer();
}

/** A small valid PNG whose header claims `width × height` (a decompression bomb's header). */
export async function pngClaiming(width: number, height: number) {
  const png = Buffer.from(await solidImage('png', 120, 120));
  // IHDR: length(4) type(4) width(4) height(4) ...; its CRC covers type + 13 data bytes.
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  png.writeUInt32BE(crc32(png.subarray(12, 29)) >>> 0, 29);
  return png;
}

export function svg(body: string, width = 200, height = 200) {
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="${width}" height="${height}">${body}</svg>`,
  );
}

/** RGBA of one pixel of a decoded image. */
export async function pixelAt(image: Buffer, x: number, y: number) {
  const { data, info } = await sharp(image).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const offset = (y * info.width + x) * info.channels;
  return [...data.subarray(offset, offset + 4)];
}

/**
 * A local HTTP server that records every request and answers each with a red PNG: if a renderer
 * fetched anything from it, the request is in `hits` (and red would show in the picture).
 */
export async function startTrapServer() {
  const { createServer } = await import('node:http');
  const red = await solidImage('png', 200, 200, '#ff0000');
  const hits: string[] = [];
  const server = createServer((request, response) => {
    hits.push(`${request.method} ${request.url}`);
    const css = request.url?.endsWith('.css');
    response.writeHead(200, { 'content-type': css ? 'text/css' : 'image/png' });
    response.end(css ? 'rect { fill: red }' : red);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    origin: `http://127.0.0.1:${port}`,
    hits,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** An SVG that tries every way librsvg has to load something from `origin`. */
export function svgReferencing(origin: string) {
  return Buffer.from(`<?xml version="1.0"?>
<?xml-stylesheet type="text/css" href="${origin}/sheet.css"?>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="200" height="200">
  <style>@import url(${origin}/import.css);</style>
  <image href="${origin}/x.png" x="0" y="0" width="200" height="200"/>
  <image xlink:href="${origin}/y.png" x="0" y="0" width="200" height="200"/>
  <use href="${origin}/z.svg#shape"/>
  <rect x="0" y="0" width="10" height="10" fill="url(${origin}/paint.svg#g)"/>
  <rect x="0" y="0" width="10" height="10" filter="url(${origin}/filter.svg#f)"/>
</svg>`);
}
