import { createHash } from 'node:crypto';
import { type BlockHtmlCache, blockHtmlKeyParts, type RenderedEmail } from '@digest/email';
import type { Logger } from '#server/platform/logger';

export interface BlockHtmlCacheStats {
  hits: number;
  misses: number;
  entries: number;
  /** UTF-8 bytes of the HTML and text held (the keys are 43-character hashes). */
  bytes: number;
}

export interface BlockHtmlCacheOptions {
  /** The HTML and text held at most; the least recently used block goes first. */
  maxBytes?: number;
  /** Logs the figures (info) after every this many lookups: the burst bench reads them. */
  logger?: Logger;
  logEvery?: number;
}

/** 400 distinct blocks of a burst take ≈ 4 MB; a few thousand feeds and settings fit. */
const DEFAULT_MAX_BYTES = 32 * 1024 * 1024;
const DEFAULT_LOG_EVERY = 5000;

/**
 * Rendered blocks (HTML and text) in this process's memory, keyed by a SHA-256 of everything their HTML depends on
 * (`blockHtmlKeyParts`: settings, content, error, private, cut, locale, zone), so an identical block is
 * rendered once per burst rather than once per digest. A hash, not a faster one: a feed's author chooses
 * the content, and a collision would show one digest's block in another's mail. Nothing goes stale: other
 * content is another key; an old block is only ever pushed out by the byte bound.
 */
export function createBlockHtmlCache(
  options: BlockHtmlCacheOptions = {},
): BlockHtmlCache & { stats(): BlockHtmlCacheStats } {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const logEvery = options.logEvery ?? DEFAULT_LOG_EVERY;
  /** Map order is recency: the first entry is the least recently used. */
  const entries = new Map<string, { rendered: RenderedEmail; bytes: number }>();
  const figures = { hits: 0, misses: 0, bytes: 0 };
  const stats = (): BlockHtmlCacheStats => ({ ...figures, entries: entries.size });

  function counted() {
    if (options.logger && (figures.hits + figures.misses) % logEvery === 0)
      options.logger.info(stats(), 'rendered-block cache');
  }

  return {
    stats,
    rendered(block, context, render) {
      const key = createHash('sha256').update(blockHtmlKeyParts(block, context)).digest('base64url');
      const entry = entries.get(key);
      if (entry) {
        entries.delete(key);
        entries.set(key, entry);
        figures.hits += 1;
        counted();
        return entry.rendered;
      }
      const rendered = render();
      figures.misses += 1;
      const bytes = Buffer.byteLength(rendered.html) + Buffer.byteLength(rendered.text);
      if (bytes <= maxBytes) {
        entries.set(key, { rendered, bytes });
        figures.bytes += bytes;
        for (const [oldest, { bytes: size }] of entries) {
          if (figures.bytes <= maxBytes) break;
          entries.delete(oldest);
          figures.bytes -= size;
        }
      }
      counted();
      return rendered;
    },
  };
}
