import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { preloadedIndexHtml } from './page-preloads';

const INDEX_HTML =
  '<!doctype html><html><head><title>Digest</title></head><body><div id="root"></div></body></html>';
let webDistDir: string;

beforeAll(async () => {
  webDistDir = await mkdtemp(path.join(os.tmpdir(), 'digest-preloads-'));
  await writeFile(path.join(webDistDir, 'index.html'), INDEX_HTML);
});
afterAll(() => rm(webDistDir, { recursive: true, force: true }));

describe('preloadedIndexHtml', () => {
  it('adds nothing when the build wrote no preloads', async () => {
    const indexFor = await preloadedIndexHtml(webDistDir);
    expect(indexFor('/digests')).toBeUndefined();
  });

  it('preloads the pages chunk everywhere but on the paths of the entry chunk, matched without case', async () => {
    await writeFile(
      path.join(webDistDir, 'page-preloads.json'),
      JSON.stringify({
        entryChunkPaths: ['/logIn', '/auth/:provider/callback'],
        scripts: ['/assets/pages-1.js', '/assets/shared-2.js'],
        styles: ['/assets/pages-3.css'],
      }),
    );
    const indexFor = await preloadedIndexHtml(webDistDir);
    for (const entryPath of ['/logIn', '/login', '/LOGIN/', '/auth/google/callback']) {
      expect(indexFor(entryPath)).toBeUndefined();
    }
    const html = indexFor('/digests/42');
    expect(html).toContain('<link rel="modulepreload" crossorigin href="/assets/pages-1.js">');
    expect(html).toContain('<link rel="modulepreload" crossorigin href="/assets/shared-2.js">');
    expect(html).toContain('<link rel="stylesheet" crossorigin href="/assets/pages-3.css">');
    expect(html?.indexOf('pages-3.css')).toBeLessThan(html?.indexOf('</head>') ?? 0);
    expect(indexFor('/')).toBe(html);
    expect(indexFor('/auth/google/callback/more')).toBe(html);
  });
});
