import net from 'node:net';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { handleError } from './errors';
import { installRequestGate } from './request-gate';

/** An app whose `/slow` answers when the test lets it, with the gate at `maxInFlight`. */
function appWithGate(maxInFlight: number) {
  const app = Fastify();
  app.setErrorHandler(handleError);
  const gate = installRequestGate(app, { maxInFlight, alwaysAdmitted: ['/api/health'] });
  const waiting: (() => void)[] = [];
  app.get('/slow', () => new Promise<string>((resolve) => waiting.push(() => resolve('done'))));
  app.get('/api/health', async () => 'ok');
  const releaseAll = () => {
    for (const resolve of waiting.splice(0)) resolve();
  };
  return { app, gate, waiting, releaseAll };
}

describe('the request gate', () => {
  it('answers 503 with Retry-After past the bound, and admits the health check and later requests', async () => {
    const { app, gate, waiting, releaseAll } = appWithGate(2);
    const first = app.inject('/slow');
    const second = app.inject('/slow');
    await expect.poll(() => waiting.length).toBe(2);
    const refused = await app.inject('/slow');
    expect(refused.statusCode).toBe(503);
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.json()).toMatchObject({ code: 'OVERLOADED' });
    expect((await app.inject('/api/health')).statusCode).toBe(200);
    releaseAll();
    expect((await first).statusCode).toBe(200);
    expect((await second).statusCode).toBe(200);
    expect(gate.inFlight()).toBe(0);
    const later = app.inject('/slow');
    await expect.poll(() => waiting.length).toBe(1);
    releaseAll();
    expect((await later).statusCode).toBe(200);
  });

  it('a stop waits for a handler still running, and gives up after its bound', async () => {
    const { app, gate, waiting, releaseAll } = appWithGate(10);
    const answer = app.inject('/slow');
    await expect.poll(() => waiting.length).toBe(1);
    expect(await gate.drained(10)).toBe(false);
    const drained = gate.drained(5_000);
    releaseAll();
    expect(await drained).toBe(true);
    await answer;
  });

  it('counts a request refused by an error as done', async () => {
    const { app, gate } = appWithGate(1);
    expect((await app.inject('/nowhere')).statusCode).toBe(404);
    expect(gate.inFlight()).toBe(0);
  });

  it('skips the handler of a read whose client hung up while it waited, and still counts it done', async () => {
    const app = Fastify();
    const gate = installRequestGate(app, { maxInFlight: 10, alwaysAdmitted: [] });
    let waited: () => void = () => {};
    let socket: net.Socket | undefined;
    const arrived = new Promise<void>((resolve) => {
      app.addHook('preHandler', (request) => {
        socket = request.raw.socket;
        resolve();
        return new Promise<void>((go) => {
          waited = go;
        });
      });
    });
    let handled = 0;
    app.get('/read', async () => {
      handled++;
      return 'answer';
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const address = app.server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      const client = net.connect(port, '127.0.0.1');
      client.write('GET /read HTTP/1.1\r\nHost: x\r\n\r\n');
      await arrived;
      client.destroy();
      await expect.poll(() => socket?.destroyed).toBe(true);
      waited();
      await expect.poll(() => gate.inFlight()).toBe(0);
      expect(handled).toBe(0);
    } finally {
      await app.close();
    }
  });
});
