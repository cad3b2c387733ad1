import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';

/** A provider stand-in on 127.0.0.1 that records the requests reaching it (the upstream hits). */
export interface Upstream {
  base: string;
  requests: IncomingMessage[];
}

/**
 * Test support for the fetch and cache tests: `startUpstream(handle)` starts one; every upstream a test
 * started is closed after it.
 */
export function upstreamServers() {
  const servers: http.Server[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
  return async function startUpstream(
    handle: (request: IncomingMessage, response: ServerResponse) => void,
  ): Promise<Upstream> {
    const requests: IncomingMessage[] = [];
    const server = http.createServer((request, response) => {
      requests.push(request);
      handle(request, response);
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests };
  };
}
