/**
 * What one fake provider is: the request it is handed and the answer it gives. Kept apart from the server
 * (fake-providers.ts), which lists every provider, so a provider can name these without importing the list.
 */
import type { IncomingMessage } from 'node:http';

export interface FakeRequest {
  method: string;
  /** The path after the provider's prefix, e.g. '/v1/forecast'. */
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface FakeResponse {
  status?: number;
  headers?: Record<string, string>;
  /** An object is sent as JSON. */
  body?: string | Buffer | object;
}

export interface FakeContext {
  /** This server's origin, e.g. 'http://127.0.0.1:4010'. */
  origin: string;
  /** origin + the provider's prefix. */
  baseUrl: string;
}

export interface FakeProvider {
  /** Path prefix, e.g. '/open-meteo'. */
  prefix: string;
  /** Environment variables this provider answers for, each with the path under the prefix it points at. */
  env: Record<string, string>;
  /** Variables set to these literal values (fake credentials that turn the provider on). */
  credentials?: Record<string, string>;
  /** The answer, or undefined for a 404 in the provider's style. */
  handle(
    request: FakeRequest,
    context: FakeContext,
  ): FakeResponse | undefined | Promise<FakeResponse | undefined>;
}
