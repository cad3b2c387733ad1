/**
 * Fake providers: one real HTTP server on localhost that answers every provider API the connectors
 * call, from recorded fixtures in the shape the real APIs return. Each provider lives under its own
 * path prefix (`/open-meteo`, `/hn`, …) and names the `<PROVIDER>_BASE_URL` variables that point at it,
 * so the app runs against it unchanged (`npm run dev`, end-to-end tests, connector tests).
 *
 * Switches for tests: latency for every answer, a failure per prefix (an HTTP status, a hang, a reset),
 * and a count of the requests each prefix received.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FakeProvider, FakeResponse } from './fake-provider';
import { allFakeProviders } from './providers';

export type { FakeContext, FakeProvider, FakeRequest, FakeResponse } from './fake-provider';

export type FakeFailure =
  | { status: number; headers?: Record<string, string>; body?: string | object }
  /** Accept the request and never answer. */
  | 'hang'
  /** Close the connection without an answer. */
  | 'reset';

export interface FakeProviders {
  origin: string;
  /** The same server at each of `options.aliases`, same port: `http://<alias>:<port>`. */
  aliasOrigins: string[];
  /** Every `<PROVIDER>_BASE_URL` (and other variables the providers name) pointing at this server. */
  env: Record<string, string>;
  /** Requests received under `prefix` (optionally only those whose path starts with `path`). */
  hits(prefix: string, path?: string): number;
  resetHits(): void;
  setLatency(ms: number): void;
  /** Make every request under `prefix` fail this way; undefined clears it. */
  setFailure(prefix: string, failure: FakeFailure | undefined): void;
  close(): Promise<void>;
}

export interface FakeProvidersOptions {
  port?: number;
  host?: string;
  /**
   * More loopback addresses (e.g. `127.0.0.2`) the same server answers on, with the same port and
   * handler: a bench can spread its feeds over many hosts, as real feeds are, each host with its own
   * per-host fetch limit.
   */
  aliases?: string[];
  latencyMs?: number;
  providers?: FakeProvider[];
}

function send(res: ServerResponse, answer: FakeResponse) {
  const headers = { ...answer.headers };
  let body: string | Buffer = '';
  if (Buffer.isBuffer(answer.body) || typeof answer.body === 'string') body = answer.body;
  else if (answer.body !== undefined) {
    body = JSON.stringify(answer.body);
    headers['content-type'] ??= 'application/json; charset=utf-8';
  }
  res.writeHead(answer.status ?? 200, headers);
  res.end(body);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startFakeProviders(options: FakeProvidersOptions = {}): Promise<FakeProviders> {
  const providers = options.providers ?? allFakeProviders;
  let latencyMs = options.latencyMs ?? 0;
  const failures = new Map<string, FakeFailure>();
  const hits: { prefix: string; path: string }[] = [];
  const hanging = new Set<ServerResponse>();
  let origin = '';

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const provider = providers.find(
      (candidate) => url.pathname === candidate.prefix || url.pathname.startsWith(`${candidate.prefix}/`),
    );
    if (!provider) return send(res, { status: 404, body: { error: 'no fake provider at this path' } });
    const path = url.pathname.slice(provider.prefix.length) || '/';
    hits.push({ prefix: provider.prefix, path });
    const body = await readBody(req);
    if (latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, latencyMs));
    const failure = failures.get(provider.prefix);
    if (failure === 'hang') {
      hanging.add(res);
      return;
    }
    if (failure === 'reset') return req.socket.destroy();
    if (failure) return send(res, failure);
    try {
      const answer = await provider.handle(
        { method: req.method ?? 'GET', path, query: url.searchParams, headers: req.headers, body },
        { origin, baseUrl: origin + provider.prefix },
      );
      send(res, answer ?? { status: 404, body: { error: 'Not Found' } });
    } catch (error) {
      send(res, { status: 500, body: { error: String(error) } });
    }
  };

  const listen = (server: Server, port: number, host: string) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  const server = createServer(handle);
  await listen(server, options.port ?? 0, options.host ?? '127.0.0.1');
  const { port } = server.address() as AddressInfo;
  origin = `http://${options.host ?? '127.0.0.1'}:${port}`;
  const aliases = options.aliases ?? [];
  const aliasServers = await Promise.all(
    aliases.map(async (alias) => {
      const aliasServer = createServer(handle);
      await listen(aliasServer, port, alias);
      return aliasServer;
    }),
  );
  const servers = [server, ...aliasServers];
  const env: Record<string, string> = {};
  for (const provider of providers) {
    for (const [name, path] of Object.entries(provider.env)) env[name] = origin + provider.prefix + path;
    Object.assign(env, provider.credentials);
  }

  return {
    origin,
    aliasOrigins: aliases.map((alias) => `http://${alias}:${port}`),
    env,
    hits: (prefix, path) =>
      hits.filter((hit) => hit.prefix === prefix && (path === undefined || hit.path.startsWith(path))).length,
    resetHits: () => {
      hits.length = 0;
    },
    setLatency: (ms) => {
      latencyMs = ms;
    },
    setFailure: (prefix, failure) => {
      if (failure === undefined) failures.delete(prefix);
      else failures.set(prefix, failure);
    },
    close: async () => {
      for (const res of hanging) res.destroy();
      await Promise.all(
        servers.map(
          (each) =>
            new Promise<void>((resolve) => {
              each.closeAllConnections();
              each.close(() => resolve());
            }),
        ),
      );
    },
  };
}
