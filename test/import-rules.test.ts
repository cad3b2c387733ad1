import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { cruise } from 'dependency-cruiser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The rules of .dependency-cruiser.cjs, run on a small tree in which each rule is broken once and kept
// once, so a rule that can no longer fire (a typo in a path, a lost back-reference) fails here.
const { forbidden } = createRequire(import.meta.url)('../.dependency-cruiser.cjs');

const files: Record<string, string> = {
  // Server: each layer imports one below it (allowed) and a leaf above it (forbidden); one cycle.
  'apps/server/src/app/start.ts': "import '../modules/digests/digests.routes';",
  'apps/server/src/app/config.ts': '',
  'apps/server/src/modules/digests/digests.routes.ts':
    "import '../../sources/rss/rss.connector'; import '../../app/config';",
  'apps/server/src/modules/digests/digests.repository.ts': '',
  'apps/server/src/modules/digests/digests.routes.test.ts': "import '../../app/start';",
  'apps/server/src/sources/rss/rss.connector.ts':
    "import '../../platform/logger'; import '../../modules/digests/digests.repository';",
  'apps/server/src/sources/rss/rss.client.ts': '',
  'apps/server/src/platform/logger.ts': "import '../sources/rss/rss.client';",
  'apps/server/src/platform/a.ts': "import './b';",
  'apps/server/src/platform/b.ts': "import './a';",
  // Web: features use one another through index.ts only; lib and ui know no feature and no app.
  'apps/web/src/app/routes.tsx': "import '../features/digests/index';",
  'apps/web/src/app/config.ts': '',
  'apps/web/src/features/digests/index.ts': "import './pages/DigestsPage';",
  'apps/web/src/features/digests/pages/DigestsPage.tsx':
    "import '../../builder/index'; import '../../builder/store'; import '../../../app/config'; import '../../../lib/paths';",
  'apps/web/src/features/builder/index.ts': "import './store';",
  'apps/web/src/features/builder/store.ts': "import '../../../../server/src/sources/rss/rss.client';",
  'apps/web/src/lib/paths.ts': "import '../features/builder/store';",
  'packages/contracts/src/index.ts': "import '../../email/src/index';",
  'packages/email/src/index.ts': "import '../../../apps/web/src/app/config';",
};

let root = '';
beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'import-rules-'));
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), `${text}\nexport {};\n`);
  }
});
afterAll(() => rm(root, { recursive: true, force: true }));

async function violations() {
  const cwd = process.cwd();
  process.chdir(root);
  try {
    const result = await cruise(
      ['apps', 'packages'],
      {
        validate: true,
        ruleSet: { forbidden },
        tsPreCompilationDeps: true,
      },
      { extensions: ['.ts', '.tsx'] },
    );
    if (typeof result.output === 'string') throw new Error(result.output);
    return result.output.summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`).sort();
  } finally {
    process.chdir(cwd);
  }
}

describe('the import rules', () => {
  it('refuse each import against the layers, and only those', async () => {
    expect(await violations()).toEqual([
      'apps-apart: apps/web/src/features/builder/store.ts -> apps/server/src/sources/rss/rss.client.ts',
      'contracts-at-the-bottom: packages/contracts/src/index.ts -> packages/email/src/index.ts',
      'no-circular: apps/server/src/platform/a.ts -> apps/server/src/platform/b.ts',
      'packages-below-apps: packages/email/src/index.ts -> apps/web/src/app/config.ts',
      'server-below-app: apps/server/src/modules/digests/digests.routes.ts -> apps/server/src/app/config.ts',
      'server-platform-at-the-bottom: apps/server/src/platform/logger.ts -> apps/server/src/sources/rss/rss.client.ts',
      'server-sources-below-modules: apps/server/src/sources/rss/rss.connector.ts -> apps/server/src/modules/digests/digests.repository.ts',
      'web-below-app: apps/web/src/features/digests/pages/DigestsPage.tsx -> apps/web/src/app/config.ts',
      'web-feature-through-its-index: apps/web/src/features/digests/pages/DigestsPage.tsx -> apps/web/src/features/builder/store.ts',
      'web-lib-and-ui-know-no-feature: apps/web/src/lib/paths.ts -> apps/web/src/features/builder/store.ts',
    ]);
  });
});
