/**
 * The one way the server talks to the outside world (docs/design.md §7). Every outbound request goes through a
 * `SafeFetch`, which refuses private networks on every hop, bounds time and size, and follows redirects
 * itself so each hop is checked.
 */
export interface HttpRequest {
  url: string;
  method?: 'GET' | 'POST' | 'DELETE';
  headers?: Record<string, string>;
  body?: string;
  /** Total time for the whole exchange, redirects included. */
  timeoutMs?: number;
  /** Largest body accepted; a bigger one fails with code `too_large`. */
  maxBytes?: number;
  /** 0 answers the redirect itself instead of following it. */
  maxRedirects?: number;
}

export interface HttpResponse {
  status: number;
  /** The URL finally answered, after redirects. */
  url: string;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: Buffer;
  /**
   * Where the request's permanent redirects (301 and 308, from the first hop until any other answer) led,
   * when the first hop answered one: the address the resource says it moved to for good.
   */
  movedTo?: string;
}

export type SafeFetch = (request: HttpRequest) => Promise<HttpResponse>;

export type FetchErrorCode =
  | 'bad_url'
  | 'blocked_address'
  | 'blocked_port'
  | 'dns'
  | 'timeout'
  | 'too_large'
  | 'too_many_redirects'
  | 'network';

/** A request that never got a complete HTTP answer. HTTP error statuses are answers, not FetchErrors. */
export class FetchError extends Error {
  constructor(
    readonly code: FetchErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'FetchError';
  }
}
