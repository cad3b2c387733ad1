import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export class DataDirInUseError extends Error {
  constructor(dataDir: string, pid: number) {
    super(
      `DATA_DIR ${dataDir} is in use by another Digest process (pid ${pid}). ` +
        'The embedded database allows one process per folder: stop the other one, choose another DATA_DIR, ' +
        'or set DATABASE_URL to run several processes on PostgreSQL.',
    );
  }
}

interface LockOwner {
  pid: number;
  host: string;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readOwner(lockPath: string): LockOwner | undefined {
  try {
    return JSON.parse(readFileSync(lockPath, 'utf8')) as LockOwner;
  } catch {
    return undefined;
  }
}

/**
 * PGlite does not lock its folder and a second process would silently lose writes, so the server
 * takes this lock first. A lock left by a process that died (SIGKILL, power loss) is taken over.
 */
export function acquireDataDirLock(dataDir: string): { release(): void } {
  mkdirSync(dataDir, { recursive: true });
  const lockPath = path.join(dataDir, 'digest.lock');
  const me: LockOwner = { pid: process.pid, host: os.hostname() };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockPath, 'wx', 0o600);
      writeSync(fd, JSON.stringify(me));
      closeSync(fd);
      const release = () => {
        if (readOwner(lockPath)?.pid === me.pid) unlinkSync(lockPath);
        process.off('exit', release);
      };
      process.on('exit', release);
      return { release };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = readOwner(lockPath);
      if (owner && owner.pid !== me.pid && owner.host === me.host && isRunning(owner.pid)) {
        throw new DataDirInUseError(dataDir, owner.pid);
      }
      if (owner && owner.host !== me.host) throw new DataDirInUseError(dataDir, owner.pid);
      unlinkSync(lockPath);
    }
  }
  throw new Error(`Could not lock DATA_DIR ${dataDir}`);
}
