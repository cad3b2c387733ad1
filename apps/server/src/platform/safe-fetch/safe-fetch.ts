import type { FetchError, HttpRequest, HttpResponse, SafeFetch } from './types';

export interface SafeFetchOptions {
  /** Hosts, IPs and CIDRs that may be reached although private (FETCH_ALLOW_PRIVATE_HOSTS). */
  allowPrivateHosts: string[];
  userAgent?: string;
}

/**
 * FIRST CUT (issue 5 in progress): follows redirects and bounds time and size with the global fetch.
 * The address checks on every hop, per-host limits and conditional GET are being added in this folder.
 */
export function createSafeFetch(options: SafeFetchOptions): SafeFetch {
  void options;
  return async (request: HttpRequest): Promise<HttpResponse> => {
    const response = await fetch(request.url, {
      method: request.method ?? 'GET',
      headers: request.headers,
      body: request.body,
      signal: AbortSignal.timeout(request.timeoutMs ?? 10_000),
    });
    const body = Buffer.from(await response.arrayBuffer());
    return {
      status: response.status,
      url: response.url,
      headers: Object.fromEntries(response.headers),
      body,
    };
  };
}

export type { FetchError };
