import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireDataDirLock, DataDirInUseError } from './data-dir-lock';

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'digest-lock-'));
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

describe('DATA_DIR lock', () => {
  it('refuses a second holder while a live process holds the folder', async () => {
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    try {
      await writeFile(
        path.join(dataDir, 'digest.lock'),
        JSON.stringify({ pid: holder.pid, host: os.hostname() }),
      );
      expect(() => acquireDataDirLock(dataDir)).toThrow(DataDirInUseError);
      expect(() => acquireDataDirLock(dataDir)).toThrow(/is in use by another Digest process/);
    } finally {
      holder.kill();
    }
  });

  it('takes over a lock left by a process that no longer runs', async () => {
    const gone = spawn(process.execPath, ['-e', '0']);
    await new Promise((resolve) => gone.on('exit', resolve));
    await writeFile(
      path.join(dataDir, 'digest.lock'),
      JSON.stringify({ pid: gone.pid, host: os.hostname() }),
    );
    const lock = acquireDataDirLock(dataDir);
    expect(JSON.parse(await readFile(path.join(dataDir, 'digest.lock'), 'utf8')).pid).toBe(process.pid);
    lock.release();
  });

  it('frees the folder on release so the next start can take it', () => {
    acquireDataDirLock(dataDir).release();
    const again = acquireDataDirLock(dataDir);
    again.release();
  });
});
