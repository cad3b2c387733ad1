import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction, type Socket } from 'node:net';
import type { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { createHostLimiter, type HostLimiter } from '../host-limiter';
import { type AddressPolicy, createAddressPolicy, WEB_PORTS } from './address-policy';
import { FetchError, type HttpRequest, type HttpResponse, type SafeFetch } from './types';

export interface SafeFetchOptions {
  /** Hosts, IPs and CIDRs that may be reached although private (FETCH_ALLOW_PRIVATE_HOSTS). */
  allowPrivateHosts: string[];
  userAgent?: string;
  /** Time to open the TCP connection of one hop. */
  connectTimeoutMs?: number;
  /** Requests in flight to one host at a time; the rest wait. */
  perHostConcurrency?: number;
  /** How names are resolved (tests stand in for a name server that never answers). */
  resolve?: Resolve;
}

/** dns.lookup with `all: true`, as a function. */
export type Resolve = (name: string) => Promise<LookupAddress[]>;

const systemResolve: Resolve = (name) =>
  new Promise((resolve, reject) =>
    dnsLookup(name, { all: true }, (error, found) => (error ? reject(error) : resolve(found))),
  );

const DEFAULT_USER_AGENT = 'Digest/1.0 (+https://github.com/digest)';
const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;
const DEFAULT_MAX_BYTES = 5 * 1024 * 1024;
const DEFAULT_MAX_REDIRECTS = 5;
const DEFAULT_PER_HOST = 6;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const PERMANENT_REDIRECTS = new Set([301, 308]);
/** Headers that carry the caller's identity: never sent on to another origin by a redirect. */
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];

interface Hop {
  url: URL;
  method: NonNullable<HttpRequest['method']>;
  headers: Record<string, string>;
  body: string | undefined;
}

/** The addresses `hostname` may be reached at under `policy`; refuses when there are none. */
/**
 * DNS lookups run on libuv's small thread pool (shared with zlib and file access) and cannot be
 * cancelled: at most this many run at once, so names whose servers never answer cannot take the pool.
 */
const MAX_CONCURRENT_LOOKUPS = 2;

interface Lookups {
  resolve: Resolve;
  limiter: HostLimiter;
}

async function lookupAll(name: string, lookups: Lookups, signal: AbortSignal): Promise<LookupAddress[]> {
  const release = await lookups.limiter.acquire('dns', signal);
  const lookup = lookups.resolve(name);
  // The slot is freed when the lookup ends, not when the request gives up on it: the thread stays busy.
  lookup.then(release, release);
  return untilAborted(lookup, signal);
}

/**
 * The addresses a request to `hostname` may connect to. A name that does not resolve and a name that
 * resolves only to private addresses get the same answer, so nobody can map the intranet's names.
 */
async function allowedAddresses(
  hostname: string,
  policy: AddressPolicy,
  lookups: Lookups,
  signal: AbortSignal,
): Promise<LookupAddress[]> {
  const literal = hostname.replace(/^\[|\]$/g, '');
  const unreachable = `${literal} cannot be reached from this server`;
  let addresses: LookupAddress[];
  if (isIP(literal)) addresses = [{ address: literal, family: isIP(literal) }];
  else {
    try {
      addresses = await lookupAll(literal, lookups, signal);
    } catch (error) {
      if (signal.aborted) throw error;
      throw new FetchError('dns', unreachable);
    }
  }
  if (policy.allowsHost(literal)) return addresses;
  const allowed = addresses.filter(({ address }) => policy.allowsAddress(address));
  if (allowed.length === 0) {
    if (!isIP(literal)) throw new FetchError('blocked_address', unreachable);
    throw new FetchError('blocked_address', `${literal} is on a private or reserved network`);
  }
  return allowed;
}

/**
 * A `lookup` for http.request that answers with the addresses already checked, so the connection goes
 * exactly where the check said it may: no second resolution a rebinding DNS server could answer differently.
 */
function pinnedLookup(addresses: LookupAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) (callback as (e: null, a: LookupAddress[]) => void)(null, addresses);
    else {
      const first =
        addresses.find(({ family }) => !options.family || family === options.family) ?? addresses[0];
      callback(null, first?.address ?? '', first?.family ?? 4);
    }
  };
}

function decoderFor(encoding: string | undefined): Transform | undefined {
  switch (encoding?.trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip();
    case 'deflate':
      return zlib.createInflate();
    case 'br':
      return zlib.createBrotliDecompress();
    default:
      return undefined;
  }
}

function headersOf(response: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

/** Reads the body, decoded, and refuses it once the decoded size passes `maxBytes` (zip bombs included). */
async function readBody(response: IncomingMessage, maxBytes: number, signal: AbortSignal): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  const tooLarge = new FetchError('too_large', `the answer is larger than ${maxBytes} bytes`);
  const collect = async (source: AsyncIterable<Buffer>) => {
    for await (const chunk of source) {
      size += chunk.length;
      if (size > maxBytes) throw tooLarge;
      chunks.push(chunk);
    }
  };
  const decoder = decoderFor(response.headers['content-encoding']);
  try {
    if (decoder) await pipeline(response, decoder, collect, { signal });
    else await pipeline(response, collect, { signal });
  } catch (error) {
    // Tearing the streams down can surface as another error (premature close); the cap is the cause.
    throw size > maxBytes ? tooLarge : error;
  }
  return Buffer.concat(chunks, size);
}

/** `promise`, or the abort reason as soon as `signal` aborts (DNS lookups cannot be cancelled). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** What went wrong with one hop, as a FetchError; the abort reason wins (it says timeout). */
function fetchErrorOf(error: unknown, signal: AbortSignal, host: string): FetchError {
  if (signal.aborted && signal.reason instanceof FetchError) return signal.reason;
  if (error instanceof FetchError) return error;
  if (error instanceof Error && 'code' in error && error.code === 'Z_DATA_ERROR')
    return new FetchError('network', `${host} sent a body that does not decode`);
  const code = error instanceof Error && 'code' in error ? ` (${String(error.code)})` : '';
  return new FetchError('network', `${host} could not be reached${code}`);
}

export function createSafeFetch(options: SafeFetchOptions): SafeFetch {
  const policy = createAddressPolicy(options.allowPrivateHosts);
  const limiter: HostLimiter = createHostLimiter(options.perHostConcurrency ?? DEFAULT_PER_HOST);
  const lookups: Lookups = {
    resolve: options.resolve ?? systemResolve,
    limiter: createHostLimiter(MAX_CONCURRENT_LOOKUPS),
  };
  const userAgent = options.userAgent ?? DEFAULT_USER_AGENT;
  const connectTimeoutMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;

  /** One request/response exchange with the address checks; does not follow redirects. */
  async function exchange(hop: Hop, maxBytes: number, signal: AbortSignal): Promise<HttpResponse> {
    const { url } = hop;
    const addresses = await allowedAddresses(url.hostname, policy, lookups, signal);
    const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
    const ips = addresses.map(({ address }) => address);
    if (!WEB_PORTS.has(port) && !policy.allowsAnyPort(url.hostname, ips))
      throw new FetchError('blocked_port', `${url.host}: only ports 80 and 443 are fetched`);
    const release = await limiter.acquire(url.host, signal);
    try {
      const response = await new Promise<IncomingMessage>((resolve, reject) => {
        const request = (url.protocol === 'https:' ? https : http).request(url, {
          method: hop.method,
          headers: hop.headers,
          lookup: pinnedLookup(addresses),
          agent: false,
          signal,
        });
        const connectTimer = setTimeout(
          () => request.destroy(new FetchError('timeout', `${url.host} did not accept a connection in time`)),
          connectTimeoutMs,
        );
        request.on('socket', (socket: Socket) => {
          socket.once('connect', () => {
            clearTimeout(connectTimer);
            // Belt and braces: whatever chose the address, the socket must have landed on an allowed one.
            const remote = socket.remoteAddress ?? '';
            if (!policy.allowsHost(url.hostname) && !policy.allowsAddress(remote))
              request.destroy(
                new FetchError('blocked_address', `${url.hostname} is on a private or reserved network`),
              );
          });
        });
        request.once('response', resolve);
        request.once('error', reject);
        request.once('close', () => clearTimeout(connectTimer));
        request.end(hop.body);
      });
      const declared = Number(response.headers['content-length']);
      if (declared > maxBytes) {
        response.destroy();
        throw new FetchError('too_large', `the answer is ${declared} bytes, more than ${maxBytes}`);
      }
      const status = response.statusCode ?? 0;
      const answer = { status, url: url.href, headers: headersOf(response) };
      if (REDIRECTS.has(status) && response.headers.location) {
        // A redirect's body is never used: do not spend the size budget or time on it.
        response.destroy();
        return { ...answer, body: Buffer.alloc(0) };
      }
      return { ...answer, body: await readBody(response, maxBytes, signal) };
    } catch (error) {
      throw fetchErrorOf(error, signal, url.host);
    } finally {
      release();
    }
  }

  function parseHttpUrl(value: string, base?: URL): URL {
    let url: URL;
    try {
      url = new URL(value, base);
    } catch {
      throw new FetchError('bad_url', `${value} is not a valid URL`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new FetchError('bad_url', `${url.protocol} URLs are not fetched, only http and https`);
    url.username = '';
    url.password = '';
    url.hash = '';
    return url;
  }

  /** The next hop after a redirect answer, following the Fetch standard's method and header rules. */
  function nextHop(hop: Hop, status: number, location: string): Hop {
    const url = parseHttpUrl(location, hop.url);
    const toGet = status === 303 || ((status === 301 || status === 302) && hop.method === 'POST');
    const headers = { ...hop.headers };
    if (url.origin !== hop.url.origin) for (const name of CREDENTIAL_HEADERS) delete headers[name];
    if (toGet) {
      delete headers['content-type'];
      delete headers['content-length'];
    }
    return toGet && hop.method !== 'GET'
      ? { url, method: 'GET', headers, body: undefined }
      : { ...hop, url, headers };
  }

  return async (request) => {
    const timeoutMs = request.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const maxBytes = request.maxBytes ?? DEFAULT_MAX_BYTES;
    const maxRedirects = request.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
    const headers: Record<string, string> = {
      'user-agent': userAgent,
      'accept-encoding': 'gzip, deflate, br',
    };
    for (const [name, value] of Object.entries(request.headers ?? {})) headers[name.toLowerCase()] = value;
    let hop: Hop = {
      url: parseHttpUrl(request.url),
      method: request.method ?? 'GET',
      headers,
      body: request.body,
    };

    const controller = new AbortController();
    const deadline = setTimeout(
      () => controller.abort(new FetchError('timeout', `no complete answer within ${timeoutMs} ms`)),
      timeoutMs,
    );
    try {
      let movedTo: string | undefined;
      let permanent = true;
      for (let redirects = 0; ; redirects++) {
        const response = await exchange(hop, maxBytes, controller.signal);
        const location = response.headers.location;
        if (!REDIRECTS.has(response.status) || !location || maxRedirects === 0)
          return movedTo === undefined ? response : { ...response, movedTo };
        if (redirects === maxRedirects)
          throw new FetchError(
            'too_many_redirects',
            `more than ${maxRedirects} redirects from ${request.url}`,
          );
        hop = nextHop(hop, response.status, location);
        // Only a chain of permanent redirects from the start says the address moved; a temporary one
        // after them ends what the address may be changed to.
        permanent &&= PERMANENT_REDIRECTS.has(response.status);
        if (permanent) movedTo = hop.url.href;
      }
    } finally {
      clearTimeout(deadline);
    }
  };
}

export type { FetchError };
