import type { sourceKinds } from '../source-kinds';
import type { ContentOf } from '../source-kinds/source-kind';
import type { SourceType } from '../sources';

/**
 * The live content of one source block (docs/product.md §3 "data" / "items"), as connectors produce it and as the
 * builder preview and the e-mail render it. Plain JSON: dates are ISO 8601 strings, HTML fields are
 * already sanitised by the server. Each kind's content type is in its descriptor (`source-kinds/<kind>.ts`).
 */
export type SourceContentMap = { [T in SourceType]: ContentOf<(typeof sourceKinds)[T]> };

export type SourceContentOf<T extends SourceType> = SourceContentMap[T];

export type * from '../source-kinds';
