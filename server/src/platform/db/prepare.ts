import { ensurePgliteTemplate } from './template';

// Run by the server build (`scripts/build.mjs`), so a first start copies a ready cluster instead of running initdb.
await ensurePgliteTemplate();
