export * from './constants';
export * from './errors';
export * from './http';
export * from './relay';
export * from './signing';
