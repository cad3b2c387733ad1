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

export default defineConfig({
  plugins: [react(), sonnerWithoutInlineStyles()],
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
