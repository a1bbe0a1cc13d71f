export * from './constants';
export * from './errors';
export * from './http';
export * from './json';
export * from './messages';
export * from './messages-en';
export * from './relay';
export * from './signing';
