import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify from 'fastify';
import {
  type FastifyPluginAsyncZod,
  jsonSchemaTransform,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { type HealthDeps, healthRoutes } from '#server/modules/health/health.routes';
import { compiledSerializerCompiler } from '#server/platform/http/compiled-serializer';
import { handleError } from '#server/platform/http/errors';
import { type PageHeadFor, withPageHead } from '#server/platform/http/page-head';
import { preloadedIndexHtml } from '#server/platform/http/page-preloads';
import { limitByKey, tooManyRequests } from '#server/platform/http/rate-limit';
import { installRequestGate } from '#server/platform/http/request-gate';
import type { Logger } from '#server/platform/logger';
import type { TrustProxy } from './config';

export interface HttpServerDeps {
  logger: Logger;
  appUrl: string;
  /**
   * TRUST_PROXY: which proxies' `X-Forwarded-For` names the client (rate limits key on `request.ip`).
   * Unset or false: the socket address is the client, and the header is ignored.
   */
  trustProxy?: TrustProxy;
  /**
   * API_DOCS: serve the OpenAPI document and Swagger UI. Off by default: the explorer's scripts would run on
   * the app's own origin, beside the signed-in SPA, for the benefit of a few developers.
   */
  apiDocs?: boolean;
  /** Folder of the built SPA (index.html + assets); when missing, only the API is served. */
  webDistDir: string;
  health: HealthDeps;
  /** Extra API plugins, registered under /api (tests add routes this way). */
  apiPlugins?: FastifyPluginAsyncZod[];
  /** The pages whose head the server fills in for link previews (the SPA's index.html serves the rest). */
  pageHeadFor?: PageHeadFor;
  /**
   * Check every answer against its zod schema as well as writing it from the compiled one (see
   * compiledSerializerCompiler). On by default, as tests want it; the program turns it off for speed.
   */
  checkResponses?: boolean;
  /** MAX_REQUESTS_IN_FLIGHT: past it a request is answered 503 with Retry-After (the health check never is). */
  maxRequestsInFlight?: number;
  /**
   * How long a stop may still wait for the requests under way before the database closes: what is left
   * of SHUTDOWN_TIMEOUT_MS when the server closes.
   */
  drainTimeLeftMs?: () => number;
}

/** Public pages with their own head: short-lived in caches, as an issue's HTML is. */
const PAGE_HEAD_CACHE_CONTROL = 'public, max-age=60';
/** Reading a page's head queries the database: limited per client as the API's public pages are. */
const PAGE_HEAD_RATE_LIMIT = { max: 300, timeWindow: '1 minute' };

// Request ids from a proxy are kept when they look like ids; anything else is replaced.
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,100}$/;

const CONTENT_SECURITY_POLICY = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'"],
  // Profile pictures of connected accounts and images of feed items come from their providers.
  imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
  connectSrc: ["'self'"],
  fontSrc: ["'self'"],
  objectSrc: ["'none'"],
  frameSrc: ["'self'"],
  frameAncestors: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
};

/**
 * TRUST_PROXY as Fastify takes it. A number of hops becomes the function proxy-addr (Express) makes of it,
 * trusting the nearest `hops` addresses whoever they are (Fastify itself now refuses to trust any for a number).
 */
function trustProxyOption(trust: TrustProxy) {
  if (typeof trust !== 'number') return trust;
  return (_address: string, hop: number) => hop < trust;
}

export type HttpServer = Awaited<ReturnType<typeof buildHttpServer>>;

export async function buildHttpServer(deps: HttpServerDeps) {
  const app = Fastify({
    loggerInstance: deps.logger,
    genReqId: (request) => {
      const incoming = request.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    },
    // Only a trusted proxy's X-Forwarded-For names the client: anyone else could pick their own address
    // and escape the per-IP rate limits.
    trustProxy: trustProxyOption(deps.trustProxy ?? false),
    bodyLimit: 1024 * 1024,
  }).withTypeProvider<ZodTypeProvider>();

  // First, so it counts every request and wraps every route's handler.
  const gate = installRequestGate(app, {
    maxInFlight: deps.maxRequestsInFlight ?? 256,
    alwaysAdmitted: ['/api/health'],
  });
  // Closing stops accepting connections and waits for them to end; a request whose client hung up still
  // runs, and the database closes after this: so wait for the handlers too (bounded), not only the sockets.
  app.addHook('onClose', async () => {
    const timeoutMs = deps.drainTimeLeftMs?.() ?? 10_000;
    if (!(await gate.drained(timeoutMs))) {
      deps.logger.warn({ inFlight: gate.inFlight(), timeoutMs }, 'stopping with requests still running');
    }
  });

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(compiledSerializerCompiler({ check: deps.checkResponses ?? true }));
  app.setErrorHandler(handleError);
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  // While stopping, answers under way close their keep-alive connection, so close() does not wait on
  // clients that would keep it open.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (_request, reply) => {
    if (closing) reply.header('connection', 'close');
  });

  const https = deps.appUrl.startsWith('https:');
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: { ...CONTENT_SECURITY_POLICY, upgradeInsecureRequests: https ? [] : null },
    },
    hsts: https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    crossOriginEmbedderPolicy: false,
    frameguard: { action: 'deny' },
  });

  // Wired for every route, applied by the routes that set `config.rateLimit` (sign-in, recovery…).
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) => tooManyRequests(Math.ceil(context.ttl / 1000)),
  });

  if (deps.apiDocs) {
    await app.register(swagger, {
      openapi: {
        info: { title: 'Digest API', version: '1.0.0', description: 'The API of Digest, served under /api.' },
        components: {
          securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
        },
      },
      transform: jsonSchemaTransform,
    });
    await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });
  }

  await app.register(
    async (api) => {
      if (deps.apiDocs) api.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
      await api.register(healthRoutes(deps.health));
      for (const plugin of deps.apiPlugins ?? []) await api.register(plugin);
    },
    { prefix: '/api' },
  );

  const spaIndex = path.join(deps.webDistDir, 'index.html');
  const spaBuilt = existsSync(spaIndex);
  if (spaBuilt) {
    await app.register(fastifyStatic, {
      root: deps.webDistDir,
      wildcard: false,
      index: false,
      // The web build writes .br and .gz copies of its scripts and styles: the smallest one accepted goes.
      preCompressed: true,
      setHeaders: (reply, filePath) => {
        // Vite puts a content hash in every asset's name, so assets never change under their URL.
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        reply.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }

  const preloadedIndexFor = spaBuilt ? await preloadedIndexHtml(deps.webDistDir) : () => undefined;
  const limitPageHeads = limitByKey(app, 'page-head', PAGE_HEAD_RATE_LIMIT, (request) => request.ip);
  app.setNotFoundHandler(async (request, reply) => {
    const pathname = request.url.split('?')[0] ?? '';
    const isApi = pathname === '/api' || pathname.startsWith('/api/');
    if (isApi || !spaBuilt || (request.method !== 'GET' && request.method !== 'HEAD')) {
      return reply.status(404).send({ message: `No route ${request.method} ${pathname}`, code: 'NOT_FOUND' });
    }
    // Link crawlers run no script: a public page's title, description and image are in the HTML itself.
    const preloadedIndex = preloadedIndexFor(pathname);
    const readHead = deps.pageHeadFor?.(pathname);
    if (readHead) {
      await limitPageHeads(request, reply);
      const html = withPageHead(preloadedIndex ?? (await readFile(spaIndex, 'utf8')), await readHead());
      return reply
        .header('cache-control', PAGE_HEAD_CACHE_CONTROL)
        .type('text/html; charset=utf-8')
        .send(html);
    }
    // History fallback: the SPA owns every path outside /api.
    if (preloadedIndex) {
      return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(preloadedIndex);
    }
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });

  return app;
}
