import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from './logger';

describe('the server log', () => {
  it('keeps the names of query parameters but never their values', () => {
    const lines: string[] = [];
    const logger = createLogger({
      level: 'info',
      pretty: false,
      destination: new Writable({
        write(chunk, _encoding, done) {
          lines.push(String(chunk));
          done();
        },
      }),
    });
    logger.info({ req: { method: 'GET', url: '/reset-password?recoveryToken=s3cr3t&x=1', ip: '127.0.0.1' } });
    logger.info({ user: { password: 'hunter2', refreshToken: 'r-token' } });
    const log = lines.join('');
    expect(log).toContain('/reset-password?recoveryToken=[redacted]&x=[redacted]');
    expect(log).not.toMatch(/s3cr3t|hunter2|r-token/);
  });
});
