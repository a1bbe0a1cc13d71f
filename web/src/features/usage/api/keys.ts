/** Query keys of the usage feature. */
export const usageKeys = {
  all: (vendorId: number) => ['usage', vendorId] as const,
  app: (vendorId: number, appId: string) => ['usage', vendorId, 'app', appId] as const,
};
