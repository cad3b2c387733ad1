export * from './auth';
export * from './digests';
export * from './errors';
export * from './sources';
export * from './users';
