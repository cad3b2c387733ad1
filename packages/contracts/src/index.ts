export * from './accounts';
export * from './auth';
export * from './data-sources';
export * from './digests';
export * from './errors';
export * from './source-kinds';
export * from './sources';
export * from './users';
