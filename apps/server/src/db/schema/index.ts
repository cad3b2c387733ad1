export * from './accounts';
export * from './digests';
export * from './issues';
export * from './social';
export * from './source-cache';
export * from './tokens';
export * from './users';
