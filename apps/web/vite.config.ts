import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { brotliCompressSync, gzipSync, constants as zlib } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const API_TARGET = 'http://127.0.0.1:3000';

/**
 * sonner injects its stylesheet with a runtime <style> element, which the server's CSP
 * (`style-src 'self'`) refuses. Its CSS is imported as a file instead (src/styles/index.css), and this
 * plugin turns the injection into a no-op. It fails the build if sonner changes, so it cannot go stale silently.
 */
function sonnerWithoutInlineStyles(): Plugin {
  const marker = 'function __insertCSS(code) {';
  return {
    name: 'digest:sonner-without-inline-styles',
    apply: 'build',
    transform(code, id) {
      if (!/[\\/]node_modules[\\/]sonner[\\/]dist[\\/]index\.m?js$/.test(id)) return null;
      if (!code.includes(marker)) {
        this.error(
          'sonner no longer defines __insertCSS: re-check how it loads its CSS (CSP forbids <style>).',
        );
      }
      return { code: code.replace(marker, `${marker} return;`), map: null };
    },
  };
}

/**
 * Radix dialogs lock the page scroll with react-remove-scroll, whose styles react-style-singleton injects
 * as a <style> element, which the CSP refuses (and reports). This plugin swaps that module for one that
 * adopts a constructed style sheet instead: CSSOM style sheets are not inline styles, so the CSP allows
 * them and the scroll lock keeps working. It fails the build if the module changes shape.
 */
function styleSingletonWithoutStyleElements(): Plugin {
  const marker = 'export var stylesheetSingleton = function () {';
  const replacement = `
export var stylesheetSingleton = function () {
  var counter = 0;
  var sheet = null;
  return {
    add: function (style) {
      if (counter == 0 && typeof document !== 'undefined' && typeof CSSStyleSheet !== 'undefined') {
        sheet = new CSSStyleSheet();
        sheet.replaceSync(style);
        document.adoptedStyleSheets = document.adoptedStyleSheets.concat([sheet]);
      }
      counter++;
    },
    remove: function () {
      counter--;
      if (!counter && sheet) {
        var removed = sheet;
        document.adoptedStyleSheets = document.adoptedStyleSheets.filter(function (s) { return s !== removed; });
        sheet = null;
      }
    },
  };
};
`;
  return {
    name: 'digest:style-singleton-without-style-elements',
    apply: 'build',
    transform(code, id) {
      if (!/[\\/]node_modules[\\/]react-style-singleton[\\/]dist[\\/][^\\/]+[\\/]singleton\.js$/.test(id))
        return null;
      if (!code.includes(marker) || !code.includes("document.createElement('style')")) {
        this.error('react-style-singleton changed: re-check how it injects styles (CSP forbids <style>).');
      }
      return { code: replacement, map: null };
    },
  };
}

/**
 * Writes a Brotli and a gzip copy beside each script and style sheet of the build, compressed once at
 * their highest levels; the server sends the copy the browser accepts (@fastify/static preCompressed).
 */
function precompressedAssets(): Plugin {
  let outDir = '';
  return {
    name: 'digest:precompressed-assets',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const assets = path.join(outDir, 'assets');
      for (const name of await readdir(assets)) {
        if (!/\.(js|css|svg)$/.test(name)) continue;
        const file = path.join(assets, name);
        const body = await readFile(file);
        await writeFile(
          `${file}.br`,
          brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }),
        );
        await writeFile(`${file}.gz`, gzipSync(body, { level: 9 }));
      }
    },
  };
}

export default defineConfig({
  plugins: [
    react(),
    sonnerWithoutInlineStyles(),
    styleSingletonWithoutStyleElements(),
    precompressedAssets(),
  ],
  // #web/… imports (tsconfig.base.json paths) instead of ../../.. climbs.
  resolve: { tsconfigPaths: true },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Inline data: URIs are allowed for images only (img-src data:); keep every other asset a file.
    assetsInlineLimit: 0,
  },
  server: {
    proxy: { '/api': { target: API_TARGET } },
  },
});
