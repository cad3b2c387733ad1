// `npm start`: builds what is missing or older than its sources, then runs the server
// (all roles on the embedded database unless the environment says otherwise).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const at = (...parts) => path.join(root, ...parts);

function newestMtime(entry) {
  if (!existsSync(entry)) return 0;
  const stats = statSync(entry);
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = 0;
  for (const child of readdirSync(entry)) {
    if (child === 'node_modules' || child === 'dist') continue;
    newest = Math.max(newest, newestMtime(path.join(entry, child)));
  }
  return newest;
}

const targets = [
  {
    workspace: 'apps/server',
    output: at('apps/server/dist/main.js'),
    sources: ['apps/server/src', 'apps/server/build.mjs', 'packages'],
  },
  {
    workspace: 'apps/web',
    output: at('apps/web/dist/index.html'),
    sources: [
      'apps/web/src',
      'apps/web/public',
      'apps/web/index.html',
      'apps/web/vite.config.ts',
      'packages',
    ],
  },
];

function buildIfStale(target) {
  const built = existsSync(target.output) ? statSync(target.output).mtimeMs : 0;
  const changed = Math.max(...target.sources.map((source) => newestMtime(at(source))));
  if (built >= changed) return;
  console.log(`digest: building ${target.workspace}…`);
  const result = spawnSync('npm', ['run', 'build', '-w', target.workspace], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const [server, web] = targets;
buildIfStale(server);
// A bad variable fails at once, before the slower web build.
const { loadConfig, ConfigError } = await import(
  new URL('../apps/server/dist/app/config.js', import.meta.url).href
);
try {
  loadConfig(process.env);
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(`digest: ${error.message}`);
  process.exit(1);
}
buildIfStale(web);

await import(new URL('../apps/server/dist/main.js', import.meta.url).href);
