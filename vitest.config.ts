import { defineConfig } from 'vitest/config';

export default defineConfig({
  // #server/…, #web/… and the test helpers' aliases (tsconfig.base.json paths).
  resolve: { tsconfigPaths: true },
  test: {
    include: [
      'apps/*/src/**/*.test.{ts,tsx}',
      'apps/*/test/**/*.test.ts',
      'packages/*/src/**/*.test.{ts,tsx}',
      'test/fakes/**/*.test.ts',
      'test/*.test.ts',
    ],
    globalSetup: ['apps/server/test/global-setup.ts'],
    setupFiles: ['test/zod-messages.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Vitest's default in a run is one worker fewer than the cores: one file at a time on this 2-core
    // machine, with the second core idle while a file waits on timers, jobs or a child process. Every file
    // has its own database copy and free ports, so two run side by side.
    maxWorkers: 2,
  },
});
