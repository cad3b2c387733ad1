// Bundles the server into dist/main.js (and dist/app/config.js). Workspace packages (@digest/*) are TypeScript and go into the
// bundle; every other package stays in node_modules and is loaded at run time.
import { cp, rm } from 'node:fs/promises';
import { build } from 'esbuild';

const keepExternal = {
  name: 'external-packages',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^[^./#]/ }, (args) =>
      args.path.startsWith('@digest/') ? undefined : { path: args.path, external: true },
    );
  },
};

await rm('dist', { recursive: true, force: true });
await build({
  // config.js on its own lets `npm start` check the environment before it builds the web app.
  entryPoints: ['src/main.ts', 'src/app/config.ts'],
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  jsx: 'automatic',
  sourcemap: true,
  plugins: [keepExternal],
  logLevel: 'warning',
});
await cp('src/db/migrations', 'dist/migrations', { recursive: true });
