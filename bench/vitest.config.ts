import { defineConfig } from 'vitest/config';

// The benches' own smoke tests (`npx vitest run --config bench/vitest.config.ts`), kept out of `npm test`.
export default defineConfig({
  test: { include: ['bench/**/*.test.ts'], testTimeout: 20_000, pool: 'forks' },
});
