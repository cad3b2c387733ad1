export * from './tokens';
export * from './users';
