export * from './accounts';
export * from './digests';
export * from './social';
export * from './source-cache';
export * from './tokens';
export * from './users';
