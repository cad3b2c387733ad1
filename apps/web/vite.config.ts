import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { brotliCompressSync, gzipSync, constants as zlib } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin, type Rolldown } from 'vite';
import { entryChunkPaths } from './src/lib/paths';

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
      // A failed build (a budget, say) wrote no folder, and its own error must not be hidden by this one.
      if (!existsSync(assets)) return;
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

/**
 * The most JavaScript, in kB (1024 bytes) of gzip -9 as bench/builder-load.ts counts, that a first visit
 * may download: the build fails past one of them, so that growth shows here rather than in a benchmark
 * months later. Raise one only knowingly, with the figures in bench/README.md.
 */
const FIRST_LOAD_BUDGETS_KB = {
  /**
   * /login, a stranger: the entry and what it imports. Issue 15's goal, 130, met with every schema of the
   * web app in zod/mini (bench/README.md "First load").
   */
  login: 130,
  /**
   * /digests, signed in: the entry and the pages chunk with what it imports (preloaded by the server). It
   * holds the signed-out forms' small hook beside react-hook-form (the signed-in forms').
   */
  digests: 228,
  /** Opening the builder on top of /digests: its layout's and page's chunks (issue 15's goal). */
  builderExtra: 40,
};

/** The chunk files a chunk loads before it runs: itself and its static imports, transitively. */
function staticClosure(bundle: Rolldown.OutputBundle, roots: Rolldown.OutputChunk[]): Set<string> {
  const files = new Set<string>();
  const visit = (fileName: string) => {
    const chunk = bundle[fileName];
    if (chunk?.type !== 'chunk' || files.has(fileName)) return;
    files.add(fileName);
    for (const imported of chunk.imports) visit(imported);
  };
  for (const root of roots) visit(root.fileName);
  return files;
}

/** Fails the build when a first load outgrows its budget in FIRST_LOAD_BUDGETS_KB. */
function firstLoadBudgets(): Plugin {
  return {
    name: 'digest:first-load-budgets',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter(
        (file): file is Rolldown.OutputChunk => file.type === 'chunk',
      );
      const facade = (source: string) => {
        const chunk = chunks.find((candidate) => candidate.facadeModuleId?.endsWith(source));
        if (!chunk) this.error(`no chunk for ${source}: the first-load budgets cannot be checked.`);
        return chunk;
      };
      const login = staticClosure(
        bundle,
        chunks.filter((chunk) => chunk.isEntry),
      );
      const digests = new Set([...login, ...staticClosure(bundle, [facade('/src/app/pages.ts')])]);
      const builder = staticClosure(bundle, [
        facade('/features/builder/pages/BuilderLayout.tsx'),
        facade('/features/builder/pages/DigestCreatorPage.tsx'),
      ]);
      const builderExtra = new Set([...builder].filter((file) => !digests.has(file)));
      const loads = { login, digests, builderExtra };
      for (const [name, files] of Object.entries(loads) as [keyof typeof loads, Set<string>][]) {
        let bytes = 0;
        for (const file of files)
          bytes += gzipSync((bundle[file] as Rolldown.OutputChunk).code, { level: 9 }).length;
        const kB = bytes / 1024;
        const budget = FIRST_LOAD_BUDGETS_KB[name];
        const figure = `${name}: ${kB.toFixed(1)} kB gzip in ${files.size} files (budget ${budget} kB)`;
        if (kB > budget) {
          this.error(
            `first-load JavaScript over budget, ${figure}: load what it does not need lazily, or raise FIRST_LOAD_BUDGETS_KB knowingly.`,
          );
        }
        this.info(`first-load JavaScript, ${figure}`);
      }
    },
  };
}

/** What the server adds to index.html on the paths outside the entry chunk; read by apps/server at start. */
interface PagePreloads {
  /** Route paths (`:name` for a parameter) whose page is in the entry chunk: nothing to preload. */
  entryChunkPaths: string[];
  /** The pages chunk and the chunks it imports, the entry's excepted: `<link rel="modulepreload">`. */
  scripts: string[];
  /** Their style sheets: `<link rel="stylesheet">`, which Vite's loader then finds in place. */
  styles: string[];
}

/**
 * The pages other than the signed-out ones are a lazy chunk (src/app/pages.ts). Loaded by the router, it
 * would be requested only once the entry had arrived and run, one more round trip on every signed-in
 * load; this plugin writes `page-preloads.json`, from which the server names the chunk in the HTML of those
 * paths, so the browser fetches it alongside the entry.
 */
function pagesChunkPreloads(): Plugin {
  let base = '/';
  return {
    name: 'digest:pages-chunk-preloads',
    apply: 'build',
    configResolved(config) {
      base = config.base;
    },
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter(
        (file): file is Rolldown.OutputChunk => file.type === 'chunk',
      );
      const pages = chunks.find((chunk) => chunk.facadeModuleId?.endsWith('/src/app/pages.ts'));
      if (!pages) this.error('no chunk for src/app/pages.ts: the preloads of the pages chunk would be lost.');
      const scripts = new Set<string>();
      const styles = new Set<string>();
      const visit = (chunk: Rolldown.OutputChunk) => {
        if (chunk.isEntry || scripts.has(chunk.fileName)) return;
        scripts.add(chunk.fileName);
        for (const css of chunk.viteMetadata?.importedCss ?? []) styles.add(css);
        for (const imported of chunk.imports) {
          const next = bundle[imported];
          if (next?.type === 'chunk') visit(next);
        }
      };
      visit(pages);
      const preloads: PagePreloads = {
        entryChunkPaths,
        scripts: [...scripts].map((file) => base + file),
        styles: [...styles].map((file) => base + file),
      };
      this.emitFile({
        type: 'asset',
        fileName: 'page-preloads.json',
        source: `${JSON.stringify(preloads, null, 2)}\n`,
      });
    },
  };
}

export default defineConfig({
  plugins: [
    react(),
    sonnerWithoutInlineStyles(),
    styleSingletonWithoutStyleElements(),
    precompressedAssets(),
    pagesChunkPreloads(),
    firstLoadBudgets(),
  ],
  // #web/… imports (tsconfig.base.json paths) instead of ../../.. climbs.
  resolve: { tsconfigPaths: true },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Inline data: URIs are allowed for images only (img-src data:); keep every other asset a file.
    assetsInlineLimit: 0,
    // The entry holds react-dom and the other libraries of the first load by design (one request, not
    // many); FIRST_LOAD_BUDGETS_KB watches what it weighs compressed, which is what the browser downloads.
    chunkSizeWarningLimit: 650,
    rolldownOptions: {
      output: {
        // Few files rather than many small ones (HTTP/1.1 opens six connections per host): everything the
        // entry imports statically in one chunk, whatever the lazy chunks also use; what several lazy
        // chunks share (the pages, the builder, the profile editor) in a second. Each lazy chunk keeps the
        // rest of its own code.
        codeSplitting: {
          groups: [
            { name: 'app', tags: ['$initial'], priority: 2 },
            { name: 'shared', minShareCount: 2, priority: 1 },
          ],
        },
      },
    },
  },
  server: {
    proxy: { '/api': { target: API_TARGET } },
  },
});
