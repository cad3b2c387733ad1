export * from './accounts';
export * from './digests';
export * from './issues';
export * from './mail-consent';
export * from './social';
export * from './source-cache';
export * from './tokens';
export * from './users';
