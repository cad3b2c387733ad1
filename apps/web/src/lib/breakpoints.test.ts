import { describe, expect, it } from 'vitest';
import { BREAKPOINTS, deviceForWidth, VIEWPORT_WIDTHS } from './breakpoints';

// Vitest stubs CSS imports (even `?raw`), so the glob only lists the files and Node's fs reads them.
// The web tsconfig has no Node types, hence the untyped import.
const styleSheetPaths = Object.keys(import.meta.glob('../**/*.css'));

async function readStyleSheets(): Promise<[string, string][]> {
  const fs = (await import(/* @vite-ignore */ 'node:fs' as string)) as {
    readFileSync(path: URL, encoding: 'utf8'): string;
  };
  return styleSheetPaths.map((path) => [path, fs.readFileSync(new URL(path, import.meta.url), 'utf8')]);
}

describe('layout breakpoints', () => {
  it('maps each option width to the layout of docs/product.md §2', () => {
    expect(VIEWPORT_WIDTHS.map((width) => [width, deviceForWidth(width)])).toEqual([
      [375, 'mobile'],
      [568, 'tablet'],
      [768, 'tablet'],
      [992, 'desktop'],
      [1200, 'desktop'],
      [1440, 'desktop'],
      [1921, 'desktop'],
    ]);
    expect(deviceForWidth(567)).toBe('mobile');
    expect(deviceForWidth(991)).toBe('tablet');
  });

  it('style sheets only use the breakpoint widths in media queries', async () => {
    const allowed = new Set<number>([
      BREAKPOINTS.tablet,
      BREAKPOINTS.desktop,
      BREAKPOINTS.tablet - 0.02,
      BREAKPOINTS.desktop - 0.02,
    ]);
    const files = await readStyleSheets();
    expect(files.length).toBeGreaterThan(5);
    let widths = 0;
    for (const [file, css] of files) {
      for (const media of css.matchAll(/@media[^{]*/g)) {
        for (const width of media[0].matchAll(/(?:min|max)-width:\s*([\d.]+)px/g)) {
          widths += 1;
          expect(allowed.has(Number(width[1])), `${file}: ${media[0].trim()}`).toBe(true);
        }
      }
    }
    expect(widths).toBeGreaterThan(0);
  });
});
