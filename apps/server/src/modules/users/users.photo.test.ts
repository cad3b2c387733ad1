import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userPhotos, users } from '#server/db/schema';
import {
  noisePng,
  pixelAt,
  solidImage,
  startTrapServer,
  stripedImage,
  svg,
  svgReferencing,
} from './sample-images';
import { type FilePart, multipart, signUp, startTestApp, type TestApp, type TestUser } from './test-support';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const image = (content: Buffer, filename = 'photo.png', contentType = 'image/png'): FilePart => ({
  field: 'image',
  filename,
  contentType,
  content,
});

function upload(user: TestUser, files: FilePart[], fields: Record<string, string> = {}) {
  const body = multipart(files, fields);
  return t.app.inject({
    method: 'PATCH',
    url: '/api/users/me/photo',
    headers: { ...user.headers, ...body.headers },
    payload: body.payload,
  });
}

/** The user's photo as stored: the id on the user and the row in user_photos. */
async function storedPhoto(userId: string) {
  const [user] = await t.database.db.select().from(users).where(eq(users.userId, userId));
  const rows = await t.database.db.select().from(userPhotos).where(eq(userPhotos.userId, userId));
  return { photoId: user?.photoId ?? null, updatedAt: user?.updatedAt, rows };
}

/** Uploads a good photo and answers its stored state, for tests that must see it stay. */
async function withPhoto(user: TestUser) {
  const response = await upload(user, [image(await solidImage('png', 300, 300, '#123456'))]);
  expect(response.statusCode).toBe(200);
  return storedPhoto(user.userId);
}

describe('PATCH /api/users/me/photo stores a square PNG', () => {
  it('accepts a PNG, answers the user with the photo URL and serves it as PNG', async () => {
    const user = await signUp(t);
    const response = await upload(user, [image(await stripedImage('png', 900, 300))]);
    expect(response.statusCode).toBe(200);
    const { user: body } = response.json();
    expect(body.photo).toMatch(/^\/api\/photos\/[0-9a-f-]{36}$/);
    expect(body.profileImg).toBe(body.photo);
    const stored = await storedPhoto(user.userId);
    expect(body.photo).toBe(`/api/photos/${stored.photoId}`);
    expect(stored.rows).toHaveLength(1);

    const served = await t.app.inject(body.photo);
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(stored.rows[0]?.png ?? Buffer.alloc(0))).toBe(true);
    const meta = await sharp(served.rawPayload).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 300, 300]);
    expect(await pixelAt(served.rawPayload, 0, 0)).toEqual([0, 255, 0, 255]);
  });

  it.each([
    ['jpeg', 'me.jpg', 'image/jpeg'],
    ['gif', 'me.gif', 'image/gif'],
  ] as const)('accepts a %s photo', async (format, filename, contentType) => {
    const user = await signUp(t);
    const response = await upload(user, [image(await solidImage(format, 800, 600), filename, contentType)]);
    expect(response.statusCode).toBe(200);
    const png = (await storedPhoto(user.userId)).rows[0]?.png ?? Buffer.alloc(0);
    const meta = await sharp(png).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 512, 512]);
  });

  it('accepts an SVG and stores and serves only the rasterised PNG', async () => {
    const user = await signUp(t);
    const response = await upload(user, [
      image(svg('<circle cx="150" cy="150" r="150" fill="#ff0000"/>', 300, 300), 'me.svg', 'image/svg+xml'),
    ]);
    expect(response.statusCode).toBe(200);
    const png = (await storedPhoto(user.userId)).rows[0]?.png ?? Buffer.alloc(0);
    expect(png.toString('latin1')).not.toContain('<svg');
    const served = await t.app.inject(response.json().user.photo);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.body).not.toContain('<svg');
    expect(await pixelAt(served.rawPayload, 150, 150)).toEqual([255, 0, 0, 255]);
  });

  it('judges by content: a PNG named photo.gif and sent as image/gif is accepted as PNG', async () => {
    const user = await signUp(t);
    const response = await upload(user, [image(await solidImage('png', 200, 200), 'photo.gif', 'image/gif')]);
    expect(response.statusCode).toBe(200);
    expect((await storedPhoto(user.userId)).rows).toHaveLength(1);
  });

  it('accepts a photo just under 5 MB', async () => {
    const user = await signUp(t);
    const noise = await noisePng(1250, 1250);
    expect(noise.length).toBeGreaterThan(4.4 * 1024 * 1024);
    expect(noise.length).toBeLessThanOrEqual(5 * 1024 * 1024);
    const response = await upload(user, [image(noise)]);
    expect(response.statusCode).toBe(200);
  });

  it('gives the photo a new URL on every upload and forgets the old one', async () => {
    const user = await signUp(t);
    const first = (await upload(user, [image(await solidImage('png', 200, 200, '#ff0000'))])).json().user
      .photo;
    const second = (await upload(user, [image(await solidImage('png', 200, 200, '#0000ff'))])).json().user
      .photo;
    expect(second).not.toBe(first);
    expect((await t.app.inject(first)).statusCode).toBe(404);
    const served = await t.app.inject(second);
    expect(served.statusCode).toBe(200);
    expect(await pixelAt(served.rawPayload, 10, 10)).toEqual([0, 0, 255, 255]);
    expect((await storedPhoto(user.userId)).rows).toHaveLength(1);
  });
});

describe('a bad upload is refused with the reason and changes nothing', () => {
  let user: TestUser;
  let before: Awaited<ReturnType<typeof storedPhoto>>;
  beforeAll(async () => {
    user = await signUp(t);
    before = await withPhoto(user);
  });

  async function expectRefused(
    response: Awaited<ReturnType<typeof upload>>,
    status: number,
    body: { code: string; message?: string },
  ) {
    expect(response.statusCode).toBe(status);
    expect(response.json()).toMatchObject(body);
    expect(typeof response.json().message).toBe('string');
    const after = await storedPhoto(user.userId);
    expect(after.photoId).toBe(before.photoId);
    expect(after.updatedAt).toEqual(before.updatedAt);
    expect(after.rows).toHaveLength(1);
    expect(after.rows[0]?.png.equals(before.rows[0]?.png ?? Buffer.alloc(0))).toBe(true);
  }

  it('a text file named .png', async () => {
    await expectRefused(await upload(user, [image(Buffer.from('hello, I am text'), 'photo.png')]), 400, {
      code: 'PHOTO_UNSUPPORTED_TYPE',
      message: 'The photo must be a JPEG, PNG, GIF or SVG image.',
    });
  });

  it('a WebP image (a real image, not an accepted format)', async () => {
    await expectRefused(await upload(user, [image(await solidImage('webp', 300, 300), 'a.png')]), 400, {
      code: 'PHOTO_UNSUPPORTED_TYPE',
    });
  });

  it('a corrupt JPEG', async () => {
    const jpeg = await solidImage('jpeg', 400, 400);
    await expectRefused(
      await upload(user, [image(jpeg.subarray(0, jpeg.length >> 1), 'a.jpg', 'image/jpeg')]),
      400,
      {
        code: 'PHOTO_UNREADABLE',
        message: 'The photo could not be read: the file is damaged or not a complete image.',
      },
    );
  });

  it('a photo smaller than 100×100', async () => {
    await expectRefused(await upload(user, [image(await solidImage('png', 99, 400))]), 400, {
      code: 'PHOTO_TOO_SMALL',
      message: 'The photo must be at least 100×100 pixels.',
    });
  });

  it('a real PNG over 5 MB gets 413', async () => {
    const noise = await noisePng(1400, 1400);
    expect(noise.length).toBeGreaterThan(5 * 1024 * 1024);
    await expectRefused(await upload(user, [image(noise)]), 413, {
      code: 'PHOTO_TOO_LARGE',
      message: 'The photo must be 5 MB or smaller.',
    });
  });

  it('a file of 5 MB and one byte gets 413', async () => {
    await expectRefused(await upload(user, [image(Buffer.alloc(5 * 1024 * 1024 + 1, 7))]), 413, {
      code: 'PHOTO_TOO_LARGE',
    });
  });

  it('an SVG that would rasterise to 10 gigapixels', async () => {
    await expectRefused(
      await upload(user, [
        image(svg('<rect width="1" height="1"/>', 100_000, 100_000), 'a.svg', 'image/svg+xml'),
      ]),
      400,
      { code: 'PHOTO_TOO_MANY_PIXELS' },
    );
  });

  it('no file at all, a file in another field, or two files', async () => {
    await expectRefused(await upload(user, []), 400, { code: 'PHOTO_MISSING' });
    const png = await solidImage('png', 200, 200);
    await expectRefused(await upload(user, [{ ...image(png), field: 'avatar' }]), 400, {
      code: 'PHOTO_MISSING',
      message: 'Send the photo in the field "image", not "avatar".',
    });
    await expectRefused(await upload(user, [image(png), image(png)]), 400, {
      code: 'PHOTO_EXTRA_PARTS',
      message: 'Send only the photo, in the field "image", and nothing else.',
    });
    await expectRefused(await upload(user, [image(png)], { note: 'hi' }), 400, { code: 'PHOTO_EXTRA_PARTS' });
  });

  it('a JSON body instead of multipart', async () => {
    const response = await t.app.inject({
      method: 'PATCH',
      url: '/api/users/me/photo',
      headers: user.headers,
      payload: { image: 'data:image/png;base64,AAAA' },
    });
    await expectRefused(response, 400, { code: 'PHOTO_MISSING' });
  });

  it('an upload without a token gets 401', async () => {
    const body = multipart([image(await solidImage('png', 200, 200))]);
    const response = await t.app.inject({
      method: 'PATCH',
      url: '/api/users/me/photo',
      headers: body.headers,
      payload: body.payload,
    });
    await expectRefused(response, 401, { code: 'UNAUTHENTICATED' });
  });
});

describe('SVG uploads load nothing from the network', () => {
  it('makes no request to a local server that the SVG references', async () => {
    const trap = await startTrapServer();
    try {
      const user = await signUp(t);
      const response = await upload(user, [image(svgReferencing(trap.origin), 'me.svg', 'image/svg+xml')]);
      expect(response.statusCode).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(trap.hits).toEqual([]);
      const served = await t.app.inject(response.json().user.photo);
      expect(await pixelAt(served.rawPayload, 100, 100)).toEqual([0, 0, 0, 0]);
      // The trap does answer: a request would have been seen.
      await fetch(`${trap.origin}/check`);
      expect(trap.hits).toEqual(['GET /check']);
    } finally {
      await trap.close();
    }
  });
});

describe('GET /api/photos/:photoId', () => {
  it('is public, cached forever and locked down', async () => {
    const user = await signUp(t);
    const { photoId } = await withPhoto(user);
    const response = await t.app.inject(`/api/photos/${photoId}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('image/png');
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['content-security-policy']).toBe("default-src 'none'");
    expect(response.rawPayload.subarray(1, 4).toString()).toBe('PNG');
  });

  it('answers 404 JSON for an unknown or malformed id', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid', '..%2f..%2fetc', '1']) {
      const response = await t.app.inject(`/api/photos/${id}`);
      expect(response.statusCode).toBe(404);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.json()).toEqual({ message: 'No such photo.', code: 'NOT_FOUND' });
    }
  });
});

describe('DELETE /api/users/me/photo', () => {
  it('removes the photo: the row goes, photo is null and the old URL is 404', async () => {
    const user = await signUp(t);
    const { photoId } = await withPhoto(user);
    const response = await t.app.inject({
      method: 'DELETE',
      url: '/api/users/me/photo',
      headers: user.headers,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().user).toMatchObject({ userId: user.userId, photo: null, profileImg: null });
    const after = await storedPhoto(user.userId);
    expect(after.photoId).toBeNull();
    expect(after.rows).toEqual([]);
    expect((await t.app.inject(`/api/photos/${photoId}`)).statusCode).toBe(404);
  });

  it('answers the user when there is no photo to remove', async () => {
    const user = await signUp(t);
    const response = await t.app.inject({
      method: 'DELETE',
      url: '/api/users/me/photo',
      headers: user.headers,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().user.photo).toBeNull();
  });

  it('needs a token', async () => {
    const response = await t.app.inject({ method: 'DELETE', url: '/api/users/me/photo' });
    expect(response.statusCode).toBe(401);
  });
});

describe("one user's token only touches that user's photo", () => {
  it("A's upload and removal leave B's photo as it was", async () => {
    const a = await signUp(t);
    const b = await signUp(t);
    const bBefore = await withPhoto(b);
    await withPhoto(a);
    expect(
      (await t.app.inject({ method: 'DELETE', url: '/api/users/me/photo', headers: a.headers })).statusCode,
    ).toBe(200);
    const bAfter = await storedPhoto(b.userId);
    expect(bAfter.photoId).toBe(bBefore.photoId);
    expect(bAfter.rows[0]?.png.equals(bBefore.rows[0]?.png ?? Buffer.alloc(0))).toBe(true);
    expect((await storedPhoto(a.userId)).rows).toEqual([]);
    expect(UUID.test(bAfter.photoId ?? '')).toBe(true);
  });
});

describe('over a real connection', () => {
  it('answers 413 to a 6 MB upload, and a good upload still works afterwards', async () => {
    const user = await signUp(t);
    const url = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const send = (content: Buffer, headers: Record<string, string>) => {
      const form = new FormData();
      form.append('image', new Blob([new Uint8Array(content)], { type: 'image/png' }), 'photo.png');
      return fetch(`${url}/api/users/me/photo`, { method: 'PATCH', headers, body: form });
    };
    const big = await send(Buffer.alloc(6 * 1024 * 1024, 1), user.headers);
    expect(big.status).toBe(413);
    expect(await big.json()).toEqual({
      message: 'The photo must be 5 MB or smaller.',
      code: 'PHOTO_TOO_LARGE',
    });
    const anonymous = await send(Buffer.alloc(6 * 1024 * 1024, 1), { 'x-forwarded-for': user.ip });
    expect(anonymous.status).toBe(401);
    const good = await send(await solidImage('png', 200, 200), user.headers);
    expect(good.status).toBe(200);
    const body = (await good.json()) as { user: { photo: string } };
    expect(body.user.photo).toMatch(/^\/api\/photos\//);
  });
});
