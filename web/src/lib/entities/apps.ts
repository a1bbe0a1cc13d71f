/**
 * The cache key of one app of a vendor, needed by several features: the app page reads it (apps), saving the
 * app's functions refreshes it (functions) (docs/adr/0028-console-data-layer.md).
 */
export const appDetailKey = (vendorId: number, appId: number | string) =>
  ['apps', vendorId, 'app', String(appId)] as const;
