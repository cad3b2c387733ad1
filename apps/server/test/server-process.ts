import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The program as `npm start` runs it (src/main.ts through tsx), as a child process a test can signal. */
const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));
const running = new Set<ChildProcessWithoutNullStreams>();

export interface Started {
  child: ChildProcessWithoutNullStreams;
  output: () => string;
  /** The exit code, or the signal's name when a signal ended the process. */
  exited: Promise<number | string | null>;
}

/** Starts the server with only `env` (and PATH) as its environment, on a free HTTP port of 127.0.0.1. */
export function runServer(env: Record<string, string>): Started {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    env: { PATH: process.env.PATH, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', ...env },
  });
  running.add(child);
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise<number | string | null>((resolve) =>
    child.on('exit', (code, signal) => {
      running.delete(child);
      resolve(code ?? signal);
    }),
  );
  return { child, output: () => output, exited };
}

/** Kills every server still running (an afterEach of the test file). */
export function killServers() {
  for (const child of running) child.kill('SIGKILL');
}
