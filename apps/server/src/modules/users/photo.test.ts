import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '#server/platform/http/errors';
import { normalisePhoto } from './photo';
import {
  noisePng,
  pixelAt,
  pngClaiming,
  solidImage,
  startTrapServer,
  stripedImage,
  svg,
  svgReferencing,
} from './sample-images';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

async function refusal(input: Buffer | Promise<Buffer>) {
  try {
    await normalisePhoto(await input);
  } catch (error) {
    if (error instanceof AppError)
      return { status: error.statusCode, code: error.code, message: error.message };
    throw error;
  }
  throw new Error('the photo was accepted');
}

describe('accepted formats are re-encoded to a square PNG', () => {
  it.each(['png', 'jpeg', 'gif'] as const)('accepts %s and answers a PNG', async (format) => {
    const output = await normalisePhoto(await solidImage(format, 300, 200));
    expect(output.subarray(0, 8)).toEqual(PNG_SIGNATURE);
    const meta = await sharp(output).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 200, 200]);
  });

  it('accepts SVG and rasterises it (the output is a PNG, not SVG)', async () => {
    const output = await normalisePhoto(svg('<rect width="300" height="150" fill="#ff8800"/>', 300, 150));
    expect(output.subarray(0, 8)).toEqual(PNG_SIGNATURE);
    expect(output.toString('latin1')).not.toContain('<svg');
    const meta = await sharp(output).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 150, 150]);
    expect(await pixelAt(output, 75, 75)).toEqual([255, 136, 0, 255]);
  });

  it('crops a wide image to its centre square', async () => {
    // 600×200: red | green | blue in thirds; the centre 200×200 is all green.
    const output = await normalisePhoto(await stripedImage('png', 600, 200));
    const meta = await sharp(output).metadata();
    expect([meta.width, meta.height]).toEqual([200, 200]);
    for (const [x, y] of [
      [0, 0],
      [199, 0],
      [0, 199],
      [199, 199],
      [100, 100],
    ] as const) {
      expect(await pixelAt(output, x, y)).toEqual([0, 255, 0, 255]);
    }
  });

  it('crops a tall image to its centre square', async () => {
    const tall = await sharp(await stripedImage('png', 600, 200))
      .rotate(90)
      .toBuffer();
    const output = await normalisePhoto(tall);
    expect(await pixelAt(output, 0, 0)).toEqual([0, 255, 0, 255]);
    expect(await pixelAt(output, 199, 199)).toEqual([0, 255, 0, 255]);
  });

  it('scales a large photo down to 512×512', async () => {
    const output = await normalisePhoto(await solidImage('jpeg', 2000, 1200));
    const meta = await sharp(output).metadata();
    expect([meta.width, meta.height]).toEqual([512, 512]);
  });

  it('keeps a photo between 100 and 512 pixels at its own size (no upscaling)', async () => {
    const meta = await sharp(await normalisePhoto(await solidImage('png', 100, 100))).metadata();
    expect([meta.width, meta.height]).toEqual([100, 100]);
  });

  it('strips metadata (EXIF, comments) and applies the EXIF orientation', async () => {
    const jpeg = await sharp(await stripedImage('jpeg', 600, 300))
      .withExif({ IFD0: { Copyright: 'secret-owner-42', Artist: 'secret-owner-42' } })
      .withMetadata({ orientation: 6 })
      .jpeg()
      .toBuffer();
    expect(jpeg.toString('latin1')).toContain('secret-owner-42');
    const output = await normalisePhoto(jpeg);
    expect(output.toString('latin1')).not.toContain('secret-owner-42');
    const meta = await sharp(output).metadata();
    expect(meta.exif).toBeUndefined();
    expect(meta.orientation).toBeUndefined();
    expect([meta.width, meta.height]).toEqual([300, 300]);
  });

  it('turns the photo the way its EXIF orientation says before cropping', async () => {
    // Stored 400×200, left half red, right half blue; orientation 6 shows it turned 90° clockwise,
    // so the viewer sees red on top and blue below.
    const halves = await sharp({ create: { width: 400, height: 200, channels: 3, background: '#0000ff' } })
      .composite([
        {
          input: { create: { width: 200, height: 200, channels: 3, background: '#ff0000' } },
          left: 0,
          top: 0,
        },
      ])
      .jpeg({ quality: 95 })
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const output = await normalisePhoto(halves);
    const [top, bottom] = [await pixelAt(output, 150, 10), await pixelAt(output, 150, 190)];
    expect(top[0]).toBeGreaterThan(200);
    expect(top[2]).toBeLessThan(50);
    expect(bottom[0]).toBeLessThan(50);
    expect(bottom[2]).toBeGreaterThan(200);
  });

  it('takes the first frame of an animated GIF', async () => {
    // Three 120×120 frames stacked: red, then blue, then blue.
    const frames = await sharp({ create: { width: 120, height: 360, channels: 3, background: '#0000ff' } })
      .composite([
        {
          input: { create: { width: 120, height: 120, channels: 3, background: '#ff0000' } },
          top: 0,
          left: 0,
        },
      ])
      .raw()
      .toBuffer();
    const animated = await sharp(frames, { raw: { width: 120, height: 360, channels: 3, pageHeight: 120 } })
      .gif({ loop: 0, delay: [100, 100, 100] })
      .toBuffer();
    expect((await sharp(animated).metadata()).pages).toBe(3);
    const output = await normalisePhoto(animated);
    const meta = await sharp(output).metadata();
    expect([meta.width, meta.height, meta.pages ?? 1]).toEqual([120, 120, 1]);
    expect(await pixelAt(output, 60, 60)).toEqual([255, 0, 0, 255]);
  });
});

describe('a file is judged by its content', () => {
  it('refuses a text file', async () => {
    expect(await refusal(Buffer.from('just some text, named photo.png by the client'))).toEqual({
      status: 400,
      code: 'PHOTO_UNSUPPORTED_TYPE',
      message: 'The photo must be a JPEG, PNG, GIF or SVG image.',
    });
  });

  it.each(['webp', 'tiff'] as const)('refuses %s, an image format that is not accepted', async (format) => {
    expect(await refusal(solidImage(format, 300, 300))).toMatchObject({
      status: 400,
      code: 'PHOTO_UNSUPPORTED_TYPE',
    });
  });

  it('refuses an empty file', async () => {
    expect(await refusal(Buffer.alloc(0))).toMatchObject({ status: 400, code: 'PHOTO_UNREADABLE' });
  });

  it('refuses a truncated JPEG', async () => {
    const jpeg = await solidImage('jpeg', 400, 400);
    expect(await refusal(jpeg.subarray(0, Math.floor(jpeg.length / 2)))).toEqual({
      status: 400,
      code: 'PHOTO_UNREADABLE',
      message: 'The photo could not be read: the file is damaged or not a complete image.',
    });
  });

  it('refuses a JPEG whose pixel data is garbage', async () => {
    const jpeg = Buffer.from(await stripedImage('jpeg', 400, 400));
    // Keep the headers (the first 700 bytes), scramble the entropy-coded data.
    for (let index = 700; index < jpeg.length - 2; index += 7) jpeg[index] = 0xff;
    expect(await refusal(jpeg)).toMatchObject({ status: 400, code: 'PHOTO_UNREADABLE' });
  });

  it('refuses an SVG that is not well-formed', async () => {
    expect(await refusal(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="200"'))).toMatchObject({
      status: 400,
    });
  });
});

describe('size rules', () => {
  it('refuses a photo smaller than 100×100 pixels', async () => {
    for (const [width, height] of [
      [99, 300],
      [300, 99],
      [50, 50],
    ] as const) {
      expect(await refusal(solidImage('png', width, height))).toEqual({
        status: 400,
        code: 'PHOTO_TOO_SMALL',
        message: 'The photo must be at least 100×100 pixels.',
      });
    }
  });

  it('refuses an SVG whose own size is under 100×100', async () => {
    expect(await refusal(svg('<rect width="64" height="64"/>', 64, 64))).toMatchObject({
      code: 'PHOTO_TOO_SMALL',
    });
  });

  it('refuses more than 5 MB with 413', async () => {
    expect(await refusal(Buffer.alloc(5 * 1024 * 1024 + 1, 0x41))).toEqual({
      status: 413,
      code: 'PHOTO_TOO_LARGE',
      message: 'The photo must be 5 MB or smaller.',
    });
    const noise = await noisePng(1400, 1400);
    expect(noise.length).toBeGreaterThan(5 * 1024 * 1024);
    expect(await refusal(noise)).toMatchObject({ status: 413, code: 'PHOTO_TOO_LARGE' });
  });

  it('refuses a PNG whose header claims 20000×20000 pixels before decoding it', async () => {
    expect(await refusal(pngClaiming(20_000, 20_000))).toEqual({
      status: 400,
      code: 'PHOTO_TOO_MANY_PIXELS',
      message: 'The photo has too many pixels: at most 40 megapixels are accepted.',
    });
  });

  it('refuses an SVG that would rasterise to 100000×100000 pixels', async () => {
    expect(await refusal(svg('<rect width="10" height="10"/>', 100_000, 100_000))).toMatchObject({
      status: 400,
      code: 'PHOTO_TOO_MANY_PIXELS',
    });
  });
});

describe('SVG is rasterised without loading anything', () => {
  let trap: Awaited<ReturnType<typeof startTrapServer>>;
  let folder: string;
  beforeAll(async () => {
    trap = await startTrapServer();
    folder = await mkdtemp(path.join(os.tmpdir(), 'digest-svg-'));
  });
  afterAll(async () => {
    await trap.close();
    await rm(folder, { recursive: true, force: true });
  });

  it('the trap server does answer when asked (so no hit below means no request)', async () => {
    const response = await fetch(`${trap.origin}/probe.png`);
    expect(response.status).toBe(200);
    expect(trap.hits).toEqual(['GET /probe.png']);
    trap.hits.length = 0;
  });

  it('makes no request for images, stylesheets, <use> or paint servers on http://127.0.0.1', async () => {
    const output = await normalisePhoto(svgReferencing(trap.origin));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(trap.hits).toEqual([]);
    // Nothing was drawn from outside: the middle stays transparent, not red.
    expect(await pixelAt(output, 100, 100)).toEqual([0, 0, 0, 0]);
  });

  it('does not read local files through file:// references', async () => {
    const redFile = path.join(folder, 'red.png');
    await writeFile(redFile, await solidImage('png', 200, 200, '#ff0000'));
    const output = await normalisePhoto(
      svg(
        `<image href="file://${redFile}" width="200" height="200"/><image href="red.png" width="200" height="200"/>`,
      ),
    );
    expect(await pixelAt(output, 100, 100)).toEqual([0, 0, 0, 0]);
  });

  it('refuses external entities and entity expansion bombs without fetching', async () => {
    const external = Buffer.from(`<?xml version="1.0"?>
<!DOCTYPE svg [ <!ENTITY % remote SYSTEM "${trap.origin}/remote.dtd"> %remote; <!ENTITY leak SYSTEM "${trap.origin}/leak"> ]>
<svg xmlns="http://www.w3.org/2000/svg" width="200" height="200"><text y="20">&leak;</text></svg>`);
    const laughs = Array.from({ length: 9 }, (_, level) => {
      const previous = level === 0 ? 'lol' : `lol${level - 1}`;
      return `<!ENTITY lol${level} "${`&${previous};`.repeat(10)}">`;
    }).join('\n');
    const bomb = Buffer.from(`<?xml version="1.0"?>
<!DOCTYPE svg [ <!ENTITY lol "lollollollol"> ${laughs} ]>
<svg xmlns="http://www.w3.org/2000/svg" width="200" height="200"><text y="20">&lol8;</text></svg>`);
    const started = Date.now();
    expect(await refusal(external)).toMatchObject({ status: 400, code: 'PHOTO_UNREADABLE' });
    expect(await refusal(bomb)).toMatchObject({ status: 400, code: 'PHOTO_UNREADABLE' });
    expect(Date.now() - started).toBeLessThan(5000);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(trap.hits).toEqual([]);
  });
});
