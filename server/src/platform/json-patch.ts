/**
 * fast-json-patch is CommonJS: under plain Node ESM (tsx, `npm start`) only its default export exists,
 * while bundlers (vitest) also offer named exports. Import it here once, the way both understand.
 */
import jsonPatch from 'fast-json-patch';

export type { Operation } from 'fast-json-patch';
export const { applyPatch, deepClone, validate } = jsonPatch;
