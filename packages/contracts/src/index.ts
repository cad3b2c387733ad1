// Every contract is written with zod/mini, not classic zod: the web app imports them, and mini's functions
// tree-shake where classic's schema classes bring every method, so the signed-out pages carry only what they
// use (docs/decisions/0005-signed-out-pages-zod-mini-own-forms.md). The server takes them as they are.
export * from './accounts';
export * from './auth';
export * from './catch-up';
export * from './data-sources';
export * from './digest-limits';
export * from './digests';
export * from './errors';
export * from './guided-sources';
export * from './newsletters';
export * from './portability';
export * from './schedule-slots';
export * from './site';
export * from './source-health';
export * from './source-kinds';
export * from './sources';
export * from './users';
