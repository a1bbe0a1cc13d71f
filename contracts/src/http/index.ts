export * from './apps';
export * from './auth';
export * from './common';
export * from './conversations';
export * from './functions';
export * from './models';
export * from './organisations';
export * from './usage';
