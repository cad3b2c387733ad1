// Layer and cycle rules, checked by `npm run check` (`npm run lint:imports`). docs/ARCHITECTURE.md
// ("Layers") says why each layer may know only the ones below it.
const server = '^apps/server/src/';
const web = '^apps/web/src/';
// Tests may build the whole program (test-api) from any layer; they still may not form cycles.
const tests = '(\\.test\\.tsx?$|/test-support\\.ts$|\\.test-support\\.ts$|/test-[^/]+\\.ts$)';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Files that import each other cannot be understood, tested or moved one at a time.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'server-below-app',
      severity: 'error',
      comment: 'app/ is the composition root: it wires modules, sources and platform; nothing imports it.',
      from: { path: `${server}(modules|sources|platform|db)/`, pathNot: tests },
      to: { path: `${server}app/` },
    },
    {
      name: 'server-sources-below-modules',
      severity: 'error',
      comment: 'sources/ holds connectors only (provider clients, parsing, content): no routes, no auth.',
      from: { path: `${server}sources/`, pathNot: tests },
      to: { path: `${server}modules/` },
    },
    {
      name: 'server-platform-at-the-bottom',
      severity: 'error',
      comment: 'platform/ and db/ serve every layer and know none of the features.',
      from: { path: `${server}(platform|db)/`, pathNot: tests },
      to: { path: `${server}(app|modules|sources)/` },
    },
    {
      name: 'web-below-app',
      severity: 'error',
      comment:
        'app/ (router, providers, layouts) composes the features; features, lib and ui never import it.',
      from: { path: `${web}(features|lib|components)/`, pathNot: tests },
      to: { path: `${web}app/` },
    },
    {
      name: 'web-lib-and-ui-know-no-feature',
      severity: 'error',
      comment: 'lib/ and components/ui/ are plumbing every feature shares: they know no feature.',
      from: { path: `${web}(lib|components)/`, pathNot: tests },
      to: { path: `${web}features/` },
    },
    {
      name: 'web-feature-through-its-index',
      severity: 'error',
      comment: "A feature uses another only through that feature's index.ts, its public face.",
      from: { path: `${web}features/([^/]+)/`, pathNot: tests },
      to: {
        path: `${web}features/[^/]+/`,
        pathNot: [`${web}features/$1/`, `${web}features/[^/]+/index\\.tsx?$`],
      },
    },
    {
      name: 'apps-apart',
      severity: 'error',
      comment: 'The server and the web app share code only through packages/ (contracts, email).',
      from: { path: '^apps/(server|web)/' },
      to: { path: '^apps/(server|web)/', pathNot: '^apps/$1/' },
    },
    {
      name: 'packages-below-apps',
      severity: 'error',
      comment: 'contracts and email are shared by the server and the web app, and know neither.',
      from: { path: '^packages/' },
      to: { path: '^apps/' },
    },
    {
      name: 'contracts-at-the-bottom',
      severity: 'error',
      comment:
        'contracts (schemas and source-kind descriptors) is read by everything and reads nothing of ours.',
      from: { path: '^packages/contracts/' },
      to: { path: '^packages/email/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist)/' },
    // Type-only imports count: a cycle through types still ties two files together.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.depcruise.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.jsx', '.d.ts'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
