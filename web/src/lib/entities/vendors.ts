/**
 * The cache key of the vendors the signed-in user works for: the shell reads it (vendors), creating or changing
 * a vendor refreshes it (admin, settings) (docs/adr/0028-console-data-layer.md).
 */
export const vendorsKey = ['vendors'] as const;
