import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';

/** `page-preloads.json`, written by the web build (apps/web/vite.config.ts `pagesChunkPreloads`). */
const pagePreloadsSchema = z.object({
  /** Route paths (`:name` for a parameter) whose page is in the entry chunk. */
  entryChunkPaths: z.array(z.string()),
  scripts: z.array(z.string()),
  styles: z.array(z.string()),
});

/** The path pattern of a route as a case-insensitive regular expression (the SPA matches without case). */
function routePattern(route: string): RegExp {
  const segments = route
    .split('/')
    .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  return new RegExp(`^${segments.join('/')}/?$`, 'i');
}

/**
 * The SPA's index.html for a path, when it differs from the file: on the paths whose page is not in the
 * entry chunk, with `<link rel="modulepreload">` for the pages chunk, so the browser requests it with the
 * entry instead of after the entry has run (one round trip less). Answers undefined for the entry's own
 * paths and when the build wrote no preloads. Everything is read and built once, at start: a web build
 * replaced under a running server is picked up by a restart.
 */
export async function preloadedIndexHtml(
  webDistDir: string,
): Promise<(pathname: string) => string | undefined> {
  let preloads: z.infer<typeof pagePreloadsSchema>;
  try {
    preloads = pagePreloadsSchema.parse(
      JSON.parse(await readFile(path.join(webDistDir, 'page-preloads.json'), 'utf8')),
    );
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return () => undefined;
    throw error;
  }
  const links = [
    ...preloads.scripts.map((url) => `<link rel="modulepreload" crossorigin href="${url}">`),
    ...preloads.styles.map((url) => `<link rel="stylesheet" crossorigin href="${url}">`),
  ];
  const indexHtml = await readFile(path.join(webDistDir, 'index.html'), 'utf8');
  const withPreloads = indexHtml.replace(/<\/head>/i, `  ${links.join('\n    ')}\n  </head>`);
  const entryPaths = preloads.entryChunkPaths.map(routePattern);
  return (pathname) => (entryPaths.some((pattern) => pattern.test(pathname)) ? undefined : withPreloads);
}
