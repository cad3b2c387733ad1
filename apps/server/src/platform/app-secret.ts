import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * APP_SECRET when configured; otherwise a secret generated once into DATA_DIR/secret (mode 600),
 * so a laptop install needs no setup and keeps its sessions across restarts.
 */
export async function loadAppSecret(options: {
  appSecret: string | undefined;
  dataDir: string;
}): Promise<string> {
  if (options.appSecret) return options.appSecret;
  const file = path.join(options.dataDir, 'secret');
  await mkdir(options.dataDir, { recursive: true });
  try {
    await writeFile(file, randomBytes(48).toString('base64url'), { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return (await readFile(file, 'utf8')).trim();
}
